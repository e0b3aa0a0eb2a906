package model

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Mode is the kind of search a check runs.
type Mode int

const (
	// Safety searches every reachable state for a failed assertion (the
	// model's invariant among them) and for invalid end states, with the
	// LTL formulas left out.
	Safety Mode = iota
	// Liveness searches for an acceptance cycle of one LTL formula under
	// weak fairness (pan -a -f).
	Liveness
)

func (m Mode) String() string {
	if m == Liveness {
		return "liveness"
	}
	return "safety"
}

// The models, in model/: the mutex, and the futex M semaphore it sleeps
// on where the OS has futexes.
const (
	MutexModel = "spinbit.pml"
	SemaModel  = "msema.pml"
)

// A Check is one run of the verifier and what it must report.
type Check struct {
	// Name identifies the check in reports, such as "base/safety".
	Name string
	// Model is the file name in model/ of the model the check runs:
	// MutexModel if empty.
	Model string
	// Defines are the macros spin's preprocessor gets, each NAME or
	// NAME=VALUE, selecting the model's size, mode and mutant.
	Defines []string
	Mode    Mode
	// Claim names the ltl formula a Liveness check verifies.
	Claim string
	// Depth is pan's -m, the deepest search it may make. The runs that
	// lock forever go deep: a depth-first search follows long paths.
	Depth int
	// Want is empty if the check must find no error. Otherwise the check
	// must find one, and pan's description of it must contain Want.
	Want string
	// About says in a few words what the check shows.
	About string
	// Long marks a check that takes more time than the default run's
	// budget allows: RunSuite runs it only when asked to (Options.Long).
	Long bool
	// MemLimitMB bounds pan's memory (its -DMEMLIM), in megabytes; 0 is
	// defaultMemLimitMB. RunSuite runs a check with a larger bound alone.
	MemLimitMB int
}

// Depths for pan's -m: runs with ROUNDS acquisitions are shallow, runs
// with FOREVER are not, and those of three Ms go deepest: a depth-first
// search follows long paths.
const (
	shallow = 100_000
	deep    = 5_000_000
	deeper  = 50_000_000
)

// bigMB is pan's memory bound for the checks of three Ms that lock twice
// or for ever, which store tens of millions of states; RunSuite runs them
// one at a time.
const bigMB = 16_000

// ModelFile returns the file name in model/ of the model c runs.
func (c Check) ModelFile() string {
	if c.Model == "" {
		return MutexModel
	}
	return c.Model
}

// Suite lists the checks that ./test.bash runs. The base model is the Go
// code as it is, and every base check must hold, but for base/live-3,
// which must find the starvation that lock_spinbit.go leaves unbounded;
// each mutant breaks one thing the Go code does, and its check must find
// the error named. The checks of the M semaphore's model (semaChecks)
// come first; they take a second.
//
// The default run checks two Ms, with runs of any length, and three Ms
// that lock once each (a few million states with the crash-path handler),
// in a few minutes on two CPUs. The checks marked Long, of three Ms that
// lock twice each or for ever, store tens of millions of states each and
// take up to 21 minutes (base/livef-3-small) and 16 GB.
//
// on are the features (features.go) of the Go code under check: every
// check of the mutex's model defines them.
func Suite(on ...string) []Check {
	const (
		lost    = "invalid end state"
		cycle   = "acceptance cycle"
		bound   = "==0)||isHeir[me])"
		heirBit = "!(isHeir[1])||((key&1024)!=0))"
		// claim is either of the two: a claim not in force is found as
		// an heir without mutexHeir or as an entry past the heir,
		// whichever the search meets first.
		claim = "isHeir["
	)
	base := []Check{
		{Name: "base/safety-2", Defines: []string{"NM=2", "ROUNDS=3"}, Depth: shallow, About: "2 Ms, 3 acquisitions each: invariant, the bound, no lost wakeup, one pending wakeup at most"},
		{Name: "base/safety-2-bin", Defines: []string{"NM=2", "ROUNDS=3", "BINSEMA"}, Depth: shallow, About: "the same with a semaphore that keeps one wakeup"},
		{Name: "base/safety-2-four", Defines: []string{"NM=2", "ROUNDS=4"}, Depth: shallow, About: "2 Ms, 4 acquisitions each"},
		{Name: "base/forever-2", Defines: []string{"NM=2", "FOREVER"}, Depth: deep, About: "2 Ms locking for ever: invariant, the bound, one pending wakeup at most"},
		{Name: "base/forever-2-bin", Defines: []string{"NM=2", "FOREVER", "BINSEMA"}, Depth: deep, About: "the same with a semaphore that keeps one wakeup"},
		{Name: "base/forever-2-small", Defines: []string{"NM=2", "FOREVER", "SPIN=2", "PASS=1", "TOPW=1"}, Depth: deep, About: "2 Ms locking for ever, 3 polls, starving after 1 pass, 1 wake of the top past the bottom"},
		{Name: "base/forever-2-name", Defines: []string{"NM=2", "FOREVER", "PASS=1", "LOOKS=2"}, Depth: deep, About: "2 Ms locking for ever, starving after 1 pass or 3 looks: claims passed on"},
		{Name: "base/forever-2-name-bin", Defines: []string{"NM=2", "FOREVER", "PASS=1", "LOOKS=2", "BINSEMA"}, Depth: deep, About: "the same with a semaphore that keeps one wakeup"},
		{Name: "base/safety-3", Defines: []string{"NM=3", "ROUNDS=1"}, Depth: shallow, About: "3 Ms, 1 acquisition each: invariant, the bound, no lost wakeup"},
		{Name: "base/safety-3-bin", Defines: []string{"NM=3", "ROUNDS=1", "BINSEMA"}, Depth: shallow, About: "the same with a semaphore that keeps one wakeup"},
		{Name: "base/safety-3-name", Defines: []string{"NM=3", "ROUNDS=1", "PASS=1", "LOOKS=2"}, Depth: shallow, About: "3 Ms, 1 acquisition each, claims passed on: the naming order"},
		{Name: "base/crash-2", Defines: []string{"NM=2", "ROUNDS=2", "CRASH"}, Depth: shallow, About: "2 Ms, 2 acquisitions each, a signal handler on M 1 that takes l on the crash path: invariant, no deadlock"},
		{Name: "base/crash-2-thrice", Defines: []string{"NM=2", "ROUNDS=3", "CRASH"}, Depth: shallow, About: "the same, 3 acquisitions each"},
		{Name: "base/crash-3", Defines: []string{"NM=3", "ROUNDS=1", "CRASH"}, Depth: shallow, About: "3 Ms, 1 acquisition each, and the crash-path handler on M 1, which may freeze the owner of the stack lock while the heir passes its claim on"},
		{Name: "base/terminates-2", Defines: []string{"NM=2", "ROUNDS=3"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "2 Ms, 3 acquisitions each: every M finishes, under weak fairness"},
		{Name: "base/terminates-2-bin", Defines: []string{"NM=2", "ROUNDS=3", "BINSEMA"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "the same with a semaphore that keeps one wakeup"},
		{Name: "base/terminates-3", Defines: []string{"NM=3", "ROUNDS=1"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "3 Ms, 1 acquisition each: every M finishes, under weak fairness"},
		{Name: "base/live-2", Defines: []string{"NM=2", "FOREVER"}, Mode: Liveness, Claim: "live", Depth: deep, About: "2 Ms locking for ever: every lock2 returns, under weak fairness"},
		{Name: "base/live-2-bin", Defines: []string{"NM=2", "FOREVER", "BINSEMA"}, Mode: Liveness, Claim: "live", Depth: deep, About: "the same with a semaphore that keeps one wakeup"},
		{Name: "base/live-2-name", Defines: []string{"NM=2", "FOREVER", "PASS=1", "LOOKS=2"}, Mode: Liveness, Claim: "live", Depth: deep, About: "2 Ms locking for ever, claims passed on: every lock2 returns"},
		{Name: "base/heirlive-2", Defines: []string{"NM=2", "FOREVER"}, Mode: Liveness, Claim: "heirlive", Depth: deep, About: "2 Ms locking for ever: every heir enters, under weak fairness"},
		{Name: "base/livef-2", Defines: []string{"NM=2", "FOREVER", "LIVEF"}, Mode: Liveness, Claim: "livef", Depth: deep, About: "2 Ms locking for ever: every lock2 returns if the Ms lose finitely many races"},
		{Name: "base/livef-2-name", Defines: []string{"NM=2", "FOREVER", "LIVEF", "PASS=1", "LOOKS=2"}, Mode: Liveness, Claim: "livef", Depth: deep, About: "the same, claims passed on"},
		{Name: "base/safety-2-giftany", Defines: []string{"NM=2", "ROUNDS=3", "GIFTANY"}, Depth: shallow, About: "2 Ms, 3 acquisitions each, a wake that may keep the spinner's role: every rule of when to give it"},
		{Name: "base/safety-3-giftany", Defines: []string{"NM=3", "ROUNDS=1", "GIFTANY"}, Depth: shallow, About: "3 Ms, 1 acquisition each, the same"},
		{Name: "base/forever-2-giftany", Defines: []string{"NM=2", "FOREVER", "GIFTANY"}, Depth: deep, About: "2 Ms locking for ever, the same"},
		{Name: "base/live-2-giftany", Defines: []string{"NM=2", "FOREVER", "GIFTANY"}, Mode: Liveness, Claim: "live", Depth: deep, About: "2 Ms locking for ever, the same: every lock2 returns, under weak fairness"},
		{Name: "base/livef-2-giftany", Defines: []string{"NM=2", "FOREVER", "LIVEF", "GIFTANY"}, Mode: Liveness, Claim: "livef", Depth: deep, About: "the same: every lock2 returns if the Ms lose finitely many races"},
		{Name: "base/live-3", Defines: []string{"NM=3", "FOREVER"}, Mode: Liveness, Claim: "live", Depth: deep, Want: cycle, About: "not bounded, as lock_spinbit.go states: with 3 Ms locking for ever, an M can wait for ever behind claims that end unnamed"},
	}
	long := []Check{
		{Name: "base/safety-3-twice", Defines: []string{"NM=3", "ROUNDS=2"}, Depth: shallow, About: "3 Ms, 2 acquisitions each: invariant, the bound, the naming order, no lost wakeup, one pending wakeup at most"},
		{Name: "base/safety-3-twice-bin", Defines: []string{"NM=3", "ROUNDS=2", "BINSEMA"}, Depth: shallow, About: "the same with a semaphore that keeps one wakeup"},
		{Name: "base/safety-3-twice-name", Defines: []string{"NM=3", "ROUNDS=2", "PASS=1", "LOOKS=2"}, Depth: shallow, About: "3 Ms, 2 acquisitions each, claims passed on: the naming order"},
		{Name: "base/forever-3", Defines: []string{"NM=3", "FOREVER"}, Depth: deeper, About: "3 Ms locking for ever: invariant, the bound, the naming order, one pending wakeup at most"},
		{Name: "base/livef-3-small", Defines: []string{"NM=3", "FOREVER", "LIVEF", "SPIN=0", "PASS=1", "LOOKS=2", "TOPW=1"}, Mode: Liveness, Claim: "livef", Depth: deeper, About: "3 Ms locking for ever, 1 poll, starving after 1 pass or 2 looks, 1 wake of the top past the bottom: every lock2 returns if the Ms lose finitely many races"},
	}
	for i := range long {
		long[i].Long, long[i].MemLimitMB = true, bigMB
	}
	mutants := []Check{
		mutant("HEIR_NOCHECK", "assertion violated (holders==1)", "the heir takes l whatever its swap found", "NM=2", "FOREVER"),
		mutant("PUSH_NOHINT", lost, "the push does not set the hint: an unlock returns without a wake", "NM=2", "ROUNDS=2"),
		liveMutant("PUSH_NOHINT", "terminates", cycle, "the same, under weak fairness: not every M finishes", "NM=2", "ROUNDS=2"),
		mutant("UNLOCK_CLEARS_CLAIM", bound, "unlock2's swap clears mutexHeir too: another M takes l before the heir", "NM=2", "FOREVER"),
		mutant("FAST_NOBACKOFF", bound, "lock2's fast path enters without looking for a claim", "NM=2", "FOREVER"),
		mutant("PASS_CLEARS", claim, "mutexPassClaim names an heir and clears mutexHeir: the heir's claim is not in force", "NM=2", "FOREVER", "PASS=1", "LOOKS=2"),
		mutant("CLAIM_NOCHECK", heirBit, "every starving M takes its OR for a won claim, whatever the bit was", "NM=3", "ROUNDS=2"),
		mutant("NO_KICK", lost, "an M that finds l free and claimed, Ms asleep, does not wake the stack: the heir may sleep for ever", "NM=3", "ROUNDS=2", "BINSEMA"),
		mutant("WAKE_SPINNER_RETURNS", lost, "unlock2Wake returns when an M spins, whatever the claim: a sleeping heir is not woken", "NM=3", "ROUNDS=2"),
		mutant("NAME_NEWEST", "assertion violated (passedOver[p]<=", "mutexPassClaim names the newest starving M, not the oldest", "NM=3", "ROUNDS=2", "PASS=1", "LOOKS=2"),
		mutant("GIVEUP_CLEARS_STACKLOCK", "stackOwner", "mutexPassClaim's give-up clears the stack lock that another M owns", "NM=3", "ROUNDS=1"),
		mutant("NEVER_GIVEUP", lost, "mutexPassClaim waits for the stack lock without limit: the crash path deadlocks when its frozen M owns it", "NM=3", "ROUNDS=1", "CRASH"),
		mutant("CRASH_OBEYS_HEIR", lost, "the crash path waits for the heir, which may be the M it interrupted", "NM=2", "ROUNDS=2", "CRASH"),
	}
	longMutants := []Check{
		liveMutant("NO_RESTORE", "livef", cycle, "the fast path does not put back the hint its swap cleared: a sleeper may sleep for ever", "NM=3", "FOREVER", "LIVEF", "SPIN=0", "LOOKS=2", "TOPW=1"),
	}
	for i := range longMutants {
		longMutants[i].Long, longMutants[i].MemLimitMB, longMutants[i].Depth = true, bigMB, deeper
	}
	checks := slices.Concat(base, mutants, long, longMutants)
	for i := range checks {
		checks[i].Defines = slices.Concat(checks[i].Defines, on)
	}
	return slices.Concat(semaChecks(), checks)
}

// semaChecks are the checks of the M semaphore's model (msema.pml): the
// futex code as it is, with two and three wakers, and its mutants.
func semaChecks() []Check {
	const lost = "invalid end state"
	checks := []Check{
		{Name: "msema/count-2", Defines: []string{"NW=2"}, Depth: shallow, About: "2 wakeups, sleeps for ever or with a limit: none lost, none taken twice, a wake calls the kernel only for an M that announced its sleep"},
		{Name: "msema/count-3", Defines: []string{"NW=3", "NOUT=3", "NEARLY=2"}, Depth: shallow, About: "the same with 3 wakeups, 3 limits that run out and 2 early returns"},
		mutant("NO_WITHDRAW", lost, "a sleep whose limit ran out leaves its -1 in the count: a later wakeup is lost", "NW=2"),
		mutant("WAKE_ON_ONE", "assertion violated ( !(wake)||announced)", "semawakeup calls the kernel on a rise from 0, whether or not the M sleeps", "NW=2"),
		mutant("SLEEP_ON_ZERO", lost, "futexsleep compares the count with 0: the M sleeps after the wakeup that cancelled its -1", "NW=2"),
	}
	for i := range checks {
		checks[i].Model = SemaModel
		checks[i].Name = strings.Replace(checks[i].Name, "mutant/", "msema-mutant/", 1)
	}
	return checks
}

// mutant is a safety check of the model with -DMUTANT_name, plus defines,
// that must report want.
func mutant(name, want, about string, defines ...string) Check {
	depth := shallow
	for _, d := range defines {
		if d == "FOREVER" {
			depth = deep
		}
	}
	return Check{
		Name:    "mutant/" + strings.ReplaceAll(strings.ToLower(name), "_", "-"),
		Defines: append([]string{"MUTANT_" + name}, defines...),
		Depth:   depth,
		Want:    want,
		About:   about,
	}
}

// liveMutant is a check of the LTL formula claim under weak fairness on
// the model with -DMUTANT_name, plus defines, that must report want.
// It is named after the mutant and the formula.
func liveMutant(name, claim, want, about string, defines ...string) Check {
	c := mutant(name, want, about, defines...)
	c.Name += "-" + claim
	c.Mode, c.Claim = Liveness, claim
	return c
}

// Judge compares what pan reported with what c expects. It returns nil if
// they agree.
func (c Check) Judge(r Result) error {
	switch {
	case c.Want == "" && r.Errors > 0:
		return fmt.Errorf("%s: pan found %q", c.Name, r.Violation)
	case c.Want == "" && r.Incomplete != "":
		return fmt.Errorf("%s: no error found, but the search is incomplete: %s", c.Name, r.Incomplete)
	case c.Want != "" && r.Errors == 0:
		if r.Incomplete != "" {
			return fmt.Errorf("%s: pan found no error, and its search is incomplete (%s); it must find %q", c.Name, r.Incomplete, c.Want)
		}
		return fmt.Errorf("%s: the mutant survived: pan found no error, and it must find %q", c.Name, c.Want)
	case c.Want != "" && !strings.Contains(r.Violation, c.Want):
		return fmt.Errorf("%s: pan found %q, and it must find %q", c.Name, r.Violation, c.Want)
	}
	return nil
}

// macroNames returns the names of c's defines, without their values.
func (c Check) macroNames() []string {
	var names []string
	for _, d := range c.Defines {
		name, _, _ := strings.Cut(d, "=")
		names = append(names, name)
	}
	return names
}

// checkDefines fails if the model never mentions one of the macros c
// defines: a misspelt or renamed macro changes nothing, and a check that
// must pass would pass for the wrong reason.
func (c Check) checkDefines(model string) error {
	for _, name := range c.macroNames() {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(model) {
			return fmt.Errorf("%s: the model never mentions the macro %s, so -D%s would change nothing: rename it in the suite (tools/internal/model/checks.go) or in the model", c.Name, name, name)
		}
	}
	return nil
}
