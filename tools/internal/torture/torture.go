// Package torture drives the spinbit mutex's torture mode (goroot's
// src/runtime/lock_torture.go, built with -tags spinbittorture): it reads
// the counts the torture test prints, and it holds deliberately broken
// versions of the mutex's files that a torture run must catch.
package torture

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Tag is the build tag that turns torture mode on.
const Tag = "spinbittorture"

// Test is the runtime test that runs the stress under torture mode and
// prints the counts.
const Test = "TestRuntimeMutexTorture"

// statsPrefix starts the line of counts that Test prints.
const statsPrefix = "spinbit torture:"

// Stats is what a torture run printed: the line itself and its key=value
// counts, in order.
type Stats struct {
	Line   string
	Keys   []string
	Values map[string]string
}

// ParseStats finds the counts line in out, the output of a test run. It
// is an error if there is none (the runtime was not built with Tag and the
// experiment on, or the test did not get that far), or if its errors count
// is missing.
func ParseStats(out string) (Stats, error) {
	for _, line := range strings.Split(out, "\n") {
		i := strings.Index(line, statsPrefix)
		if i < 0 {
			continue
		}
		line = strings.TrimSpace(line[i:])
		s := Stats{Line: line, Values: map[string]string{}}
		for _, f := range strings.Fields(line) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				continue
			}
			s.Keys = append(s.Keys, k)
			s.Values[k] = v
		}
		if _, err := s.Errors(); err != nil {
			return Stats{}, err
		}
		return s, nil
	}
	return Stats{}, fmt.Errorf("no %q line in the output: was the runtime built with -tags %s and GOEXPERIMENT=spinbitmutex, and did %s run?", statsPrefix, Tag, Test)
}

// Errors returns the count of errors the run found.
func (s Stats) Errors() (int, error) {
	v, ok := s.Values["errors"]
	if !ok {
		return 0, fmt.Errorf("torture counts have no errors= field: %q", s.Line)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("torture counts: errors=%q is not a number", v)
	}
	return n, nil
}

// Count returns the named event count, or -1 if the line lacks it.
func (s Stats) Count(name string) int64 {
	n, err := strconv.ParseInt(s.Values[name], 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// An Edit replaces Old, which must occur exactly once, with New.
type Edit struct{ Old, New string }

// A Break is a deliberately wrong file of the mutex, made by edits to the
// real one, that a torture run must catch.
type Break struct {
	Name  string
	What  string // what is wrong, for reports
	File  string // the file of src/runtime it edits; "" for lock_spinbit.go
	Edits []Edit
	// Caught matches the output of a run that failed because of the
	// break, as opposed to failing for some other reason.
	Caught *regexp.Regexp
	// BoundOnly is set for a break that keeps exclusion and breaks only
	// the bound, which a build without torture mode does not check.
	BoundOnly bool
	// Full is set for a break whose race comes too rarely in a -short
	// run to be caught there: it is run without -short.
	Full bool
}

// RuntimeFile returns the name of the file of src/runtime that b edits.
func (b Break) RuntimeFile() string {
	if b.File == "" {
		return "lock_spinbit.go"
	}
	return b.File
}

// Apply returns src, the content of b's file, with b's edits made. It is
// an error if an edit's Old text does not occur in src exactly once: the
// file has changed and the break must be brought up to date, or it would
// test nothing.
//
// In Old and New, $link stands for an M's link to the M below it on a wait
// stack, as the file names it: m.mWaitList.next on go1.24 and later,
// m.nextwaitm before.
func (b Break) Apply(src string) (string, error) {
	link := "nextwaitm"
	if strings.Contains(src, ".mWaitList.next") {
		link = "mWaitList.next"
	}
	for i, e := range b.Edits {
		old := strings.ReplaceAll(e.Old, "$link", link)
		switch n := strings.Count(src, old); n {
		case 1:
			src = strings.Replace(src, old, strings.ReplaceAll(e.New, "$link", link), 1)
		default:
			return "", fmt.Errorf("break %s, edit %d: the text to replace occurs %d times in %s, want once; update tools/internal/torture to match it:\n%s", b.Name, i+1, n, b.RuntimeFile(), old)
		}
	}
	return src, nil
}

// ByName returns the break of Breaks named name, and panics if there is
// none: callers name breaks in their package's variables, which their
// tests initialize.
func ByName(name string) Break {
	for _, b := range Breaks {
		if b.Name == name {
			return b
		}
	}
	panic("torture: no break is named " + name)
}

// bypassed matches the torture test's report of entries that bypassed a
// heir.
var bypassed = regexp.MustCompile(`\d+ entries into the busy mutex by other Ms between a heir event and the heir's entry`)

// twoHeirs matches the torture test's report of heir events that found
// another heir of their mutex.
var twoHeirs = regexp.MustCompile(`\d+ heir events found another heir of the same mutex that had not entered`)

// Breaks are the broken versions of the mutex that a torture run must
// catch.
var Breaks = []Break{
	{
		Name: "link-after-push",
		What: "mutexSleepOnStack publishes its M on the stack before it writes the M's link to the M below",
		Edits: []Edit{
			{
				// The push builds its word without mutexPushed,
				// which would link the M first, and links it after the CAS.
				Old: "\tpushed := atomic.Casuintptr(&l.key, v, mutexPushed(v, mp, giveUpSpin))\n\tif pushed {\n",
				New: "\tnext := v&^mutexMMask | mutexPartialM(mp) | mutexSleeping\n\tif giveUpSpin {\n\t\tnext &^= mutexSpinning\n\t}\n\tpushed := atomic.Casuintptr(&l.key, v, next)\n\tif pushed {\n\t\tmutexTortureDelay()\n\t\tmp.$link.set(mutexMFromKey(v))\n",
			},
		},
		// Ms left off the stack, or a wake that walks a stale link, wait
		// for ever for a wakeup: torture mode throws after a minute of
		// that ("lost wakeup"), the stress's watchdog may report it first,
		// and go test's own timeout is the last resort; a link to an M
		// that is not asleep can also wake the wrong M and break
		// exclusion, and a wake's walk down the stack that follows a
		// link not yet written faults in the runtime (SIGSEGV).
		Caught: regexp.MustCompile(`lost wakeup|panic: test timed out|SIGQUIT: quit|another M inside the critical section|unlock of unlocked lock|counter = |invalid memory address|nil pointer|SIGSEGV: segmentation violation`),
	},
	{
		Name: "take-with-store",
		What: "the spinner takes a free mutex by storing the key word it loaded instead of a CAS",
		Edits: []Edit{
			{
				Old: "\t\t\t\tif atomic.Casuintptr(&l.key, v, next) {\n\t\t\t\t\tmutexTortureNote(mutexEventSlowAcquire)\n",
				New: "\t\t\t\tatomic.Storeuintptr(&l.key, next)\n\t\t\t\tif true {\n\t\t\t\t\tmutexTortureNote(mutexEventSlowAcquire)\n",
			},
		},
		// Two Ms take the mutex at once, or a store puts back a word
		// that another M has changed since: a lost push leaves its M
		// asleep for ever, and a stack top that a wake has since taken
		// off sends a later wake down that M's link, which may be nil,
		// and faults in the runtime (SIGSEGV).
		Caught: regexp.MustCompile(`another M inside the critical section|unlock of unlocked lock|counter = |lost wakeup|free mutex has key word|panic: test timed out|SIGQUIT: quit|invalid memory address|nil pointer|SIGSEGV: segmentation violation`),
	},
	{
		Name: "heir-keeps-claim",
		What: "the heir that took the mutex with nobody asleep gives up mutexSpinning but leaves mutexHeir set",
		Edits: []Edit{
			{
				Old: "\t\t\tif atomic.Casuintptr(&l.key, v, v&^(mutexHeir|spinning)) {\n\t\t\t\tmutexTortureNote(mutexEventPassNone)\n",
				New: "\t\t\tif atomic.Casuintptr(&l.key, v, v&^spinning) {\n\t\t\t\tmutexTortureNote(mutexEventPassNone)\n",
			},
		},
		// The claim outlives its heir: no M may take the free mutex,
		// every M waits for an heir that will not come, and the stress
		// hangs; a run that ends keeps a key word with mutexHeir set,
		// which the stress reports.
		Caught: regexp.MustCompile(`free mutex has key word|lost wakeup|panic: test timed out|SIGQUIT: quit|another M inside the critical section|unlock of unlocked lock|counter = `),
	},
	// The breaks below keep exclusion and break the bound: only the
	// torture test's ledger of heir events sees them.
	{
		Name: "slow-ignores-heir",
		What: "lock2Slow takes a free mutex, with a CAS or a swap, while another M's claim is in force",
		Edits: []Edit{
			{
				Old: "\t\tif v&mutexLocked == 0 && v&mutexHeir != 0 {\n",
				New: "\t\tif false {\n",
			},
			{
				Old: "\t\t\t\t\tif *keyFlags8(&l.key)&(mutexHeir>>8) == 0 {\n",
				New: "\t\t\t\t\tif true {\n",
			},
		},
		Caught:    bypassed,
		BoundOnly: true,
	},
	{
		Name: "fast-ignores-heir",
		What: "lock2's swap enters a critical section under a claimed mutex instead of backing off",
		Edits: []Edit{
			{
				Old: "\t\tif *keyFlags8(&l.key)&(mutexHeir>>8) == 0 {\n\t\t\tmutexTortureNote(mutexEventFastAcquire)\n",
				New: "\t\tif true {\n\t\t\tmutexTortureNote(mutexEventFastAcquire)\n",
			},
		},
		Caught:    bypassed,
		BoundOnly: true,
	},
	{
		Name: "pass-clears-claim",
		What: "the heir names the next heir but clears mutexHeir, so others may take the mutex before it",
		Edits: []Edit{
			{
				Old: "\t\tnv := v &^ (mutexStackLocked | spinning)\n",
				New: "\t\tnv := v &^ (mutexStackLocked | spinning | mutexHeir)\n",
			},
		},
		// The named heir wakes as the heir of a mutex nobody claims: Ms
		// take it between its naming and its entry.
		Caught:    bypassed,
		BoundOnly: true,
	},
	{
		Name: "claim-ignores-lost",
		What: "a starving M takes its OR for a won claim even when another M's claim had set mutexHeir first, so two Ms are heirs at once",
		Edits: []Edit{
			{
				Old: "\t\t\tif atomic.Or32(keyLow32(&l.key), mutexHeir)&mutexHeir == 0 {\n",
				New: "\t\t\tif atomic.Or32(keyLow32(&l.key), mutexHeir)&mutexHeir == 0 || true {\n",
			},
		},
		// Two starving Ms load the key word with no claim in force and
		// both OR: the second is a heir too. Torture mode counts, per
		// mutex, the heirs that have not entered. Lost claims come mostly
		// in the full run's alternations with four times the Ms.
		Caught:    twoHeirs,
		BoundOnly: true,
		Full:      true,
	},
}
