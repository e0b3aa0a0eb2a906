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

// A Check is one run of the verifier and what it must report.
type Check struct {
	// Name identifies the check in reports, such as "base/safety".
	Name string
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
}

// Depths for pan's -m: runs with NACQ acquisitions are shallow, runs with
// FOREVER are not.
const (
	shallow = 100_000
	deep    = 5_000_000
)

// Suite lists the checks that ./test.bash runs. The base model is the Go
// code as it is, and every base check must hold, but for base/live-3,
// which must find the one starvation the Go code does not bound; each
// mutant breaks one thing the Go code does, and its check must find the
// error named.
//
// Three Ms that each lock twice make a few million states, and so do runs
// of any length of three Ms; the liveness of three Ms is checked with
// finite runs (base/terminates-3), since with runs of any length a
// waker's CAS can be starved (base/live-3). The check marked Long, the
// liveness of three Ms that lock twice each, takes two minutes.
//
// on are the features (features.go) of the Go code under check: every
// check defines them.
func Suite(on ...string) []Check {
	const (
		lost  = "invalid end state"
		bound = "assertion violated (budget[heirOwner]>0)"
		heirs = "assertion violated (heirOwner==0)"
		late  = "assertion violated (( !(spinning)||heir)||(failures<"
		cycle = "acceptance cycle"
	)
	base := []Check{
		{Name: "base/safety", Defines: []string{"NACQ=1"}, Depth: shallow, About: "3 Ms, 1 acquisition each: invariant, the heir's bound, no lost wakeup, one pending wakeup at most"},
		{Name: "base/safety-twice", Defines: []string{"NACQ=2"}, Depth: shallow, About: "3 Ms, 2 acquisitions each: invariant, the heir's bound, no lost wakeup"},
		{Name: "base/safety-starve2", Defines: []string{"NACQ=1", "BYP=2", "SPINS=2"}, Depth: shallow, About: "3 Ms, 1 acquisition each, 2 failures to starve, 2 polls: as base/safety"},
		{Name: "base/safety-twice-starve2", Defines: []string{"NACQ=2", "BYP=2", "SPINS=2"}, Depth: shallow, About: "3 Ms, 2 acquisitions each, 2 failures to starve, 2 polls: as base/safety-twice"},
		{Name: "base/forever-2", Defines: []string{"FOREVER", "NM=2"}, Depth: deep, About: "2 Ms locking for ever: invariant, the heir's bound"},
		{Name: "base/forever-3", Defines: []string{"FOREVER", "POPMAX=6"}, Depth: deep, About: "3 Ms locking for ever: invariant, the heir's bound, the wakes a sleeper waits for, a sleeper sees at most 6 other Ms taken off the stack"},
		{Name: "base/forever-3-tight", Defines: []string{"FOREVER", "POPMAX=5"}, Depth: deep, Want: "assertion violated (allPops[t]<=5)", About: "3 Ms locking for ever: 6 is the least bound on the wakes of others, a sleeping heir's included, that holds"},
		{Name: "base/forever-3-topwakes3", Defines: []string{"FOREVER", "TOPWAKES=3"}, Depth: deep, About: "3 Ms locking for ever, with Go's 3 wakes of the top past one bottom: invariant, the heir's bound, the wakes a sleeper waits for"},
		{Name: "base/forever-3-starve2", Defines: []string{"FOREVER", "BYP=2", "SPINS=2"}, Depth: deep, About: "3 Ms locking for ever, with Go's 2 failures to starve, 2 polls: invariant, the heir's bound, the wakes a sleeper waits for"},
		{Name: "base/forever-3-starve4", Defines: []string{"FOREVER", "BYP=4", "SPINS=2"}, Depth: deep, About: "3 Ms locking for ever, 4 failures to starve, 2 polls: invariant, the heir's bound, the wakes a sleeper waits for"},
		{Name: "base/crash", Defines: []string{"CRASH", "NM=2", "NACQ=2"}, Depth: shallow, About: "2 Ms, 2 acquisitions each, a signal handler on M 1 that takes l on the crash path: invariant, no lost wakeup"},
		{Name: "base/crash-3", Defines: []string{"CRASH", "NACQ=1"}, Depth: shallow, About: "3 Ms, 1 acquisition each, and the crash-path handler on M 1"},
		{Name: "base/crash-3-twice", Defines: []string{"CRASH", "NACQ=1", "NACQ1=2"}, Depth: shallow, About: "3 Ms, M 1 locking twice, and the crash-path handler on M 1"},
		{Name: "base/terminates-2", Defines: []string{"NM=2", "NACQ=2"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "2 Ms, 2 acquisitions each: every M finishes, under weak fairness"},
		{Name: "base/terminates-3", Defines: []string{"NACQ=1"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "3 Ms, 1 acquisition each: every M finishes, under weak fairness"},
		{Name: "base/terminates-3-starve2", Defines: []string{"NACQ=1", "BYP=2", "SPINS=2"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "3 Ms, 1 acquisition each, Go's 2 failures to starve: every M finishes, under weak fairness"},
		{Name: "base/terminates-3-starve4", Defines: []string{"NACQ=1", "BYP=4", "SPINS=2"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "3 Ms, 1 acquisition each, 4 failures to starve: every M finishes, under weak fairness"},
		{Name: "base/terminates-3-twice", Defines: []string{"NACQ=2"}, Mode: Liveness, Claim: "terminates", Depth: shallow, Long: true, About: "3 Ms, 2 acquisitions each: every M finishes, under weak fairness"},
		{Name: "base/live-2", Defines: []string{"FOREVER", "NM=2"}, Mode: Liveness, Claim: "live", Depth: deep, About: "2 Ms locking for ever: every M that calls lock2 enters, under weak fairness"},
		{Name: "base/forever-2-starve2", Defines: []string{"FOREVER", "NM=2", "BYP=2", "SPINS=2"}, Depth: deep, About: "2 Ms locking for ever, with Go's 2 failures to starve: invariant, the heir's bound"},
		{Name: "base/forever-2-starve4", Defines: []string{"FOREVER", "NM=2", "BYP=4", "SPINS=2"}, Depth: deep, About: "2 Ms locking for ever, 4 failures to starve: invariant, the heir's bound"},
		{Name: "base/live-2-starve2", Defines: []string{"FOREVER", "NM=2", "BYP=2", "SPINS=2"}, Mode: Liveness, Claim: "live", Depth: deep, About: "2 Ms locking for ever, with Go's 2 failures to starve: every M that calls lock2 enters, under weak fairness"},
		{Name: "base/live-2-starve4", Defines: []string{"FOREVER", "NM=2", "BYP=4", "SPINS=2"}, Mode: Liveness, Claim: "live", Depth: deep, About: "2 Ms locking for ever, 4 failures to starve: every M that calls lock2 enters, under weak fairness"},
		{Name: "base/live-3", Defines: []string{"FOREVER"}, Mode: Liveness, Claim: "live", Depth: deep, Want: cycle, About: "not bounded, as lock_spinbit.go states: with 3 Ms locking for ever, an M locking and unlocking on the fast path can make a waker's CAS fail for ever while the M it would wake sleeps"},
	}
	mutants := []Check{
		mutant("SEMA_LOSE", lost, "the semaphore keeps no wakeup given before the sleep", "NM=2", "NACQ=1"),
		mutant("PUSH_NO_HINT", lost, "the push does not set the hint: an unlock returns without a wake", "NACQ=1"),
		mutant("ACQUIRE_NO_HINT", lost, "lock2Slow takes l without setting the hint: a woken M never pays its debt", "NACQ=1"),
		mutant("FAST_IGNORES_HEIR", bound, "lock2's fast path enters without looking for a claim", "NACQ=1", "NACQ1=2"),
		mutant("SLOW_IGNORES_HEIR", bound, "lock2Slow takes a free mutex with a CAS while it is claimed", "FOREVER", "NM=2"),
		mutant("LATE_CLAIM", late, "a starving spinner that finds l held polls once before it claims: its heir event comes after its first look as spinner", "NACQ=1"),
		mutant("HEIR_STICKY", "assertion violated ((heirOwner==0)||", "the heir's AND gives up mutexSpinning but keeps mutexHeir: the claim outlives the heir's entry", "NM=2", "NACQ=2"),
		mutant("WAKE_IGNORES_HEIR", heirs, "mutexWakee ignores a sleeping heir: the M woken adopts the claim as a second heir", "NACQ=1"),
		mutant("WAKE_TOP", "assertion violated (pops[t]<=(", "mutexWakee always wakes the top of the stack, the M that slept last, and never the bottom", "NACQ=1", "NACQ1=3"),
		mutant("TOPWAKES_ONE_MORE", "assertion violated (pops[t]<=(", "mutexWakee lets one more wake take the top while the same M sleeps at the bottom", "NACQ=1", "NACQ1=3"),
		mutant("ARRIVE_SPIN", heirs, "an M takes mutexSpinning while Ms sleep: a starving one adopts the claim while the heir sleeps", "NACQ=1", "NACQ1=3"),
		mutant("UNLINK_RETRY_ALL", "assertion violated ((t!=0)&&(i<", "mutexWakeOne, its CAS after the unlink failed, chooses again instead of redoing that CAS", "CRASH", "NACQ=1"),
		mutant("CRASH_NESTED", lost, "the crash path waits as an M does: it pushes its M, whose link may be in use, and sleeps on its semaphore", "CRASH", "NM=2", "NACQ=1"),
		mutant("CRASH_OBEYS_HEIR", lost, "the crash path waits for the heir, which may be the M it interrupted", "CRASH", "NM=2", "NACQ=2"),
		liveMutant("ARRIVE_NO_CLAIM", "live", cycle, "a starving M that does not spin makes no request: fast-path swaps can fail its CASes for ever", "FOREVER", "NM=2"),
		liveMutant("WOKEN_NO_COUNT", "live", cycle, "a wake after which l is held at the first look is not a failure: an M woken again and again never starves", "FOREVER", "NM=2"),
		liveMutant("BLOCKED_NO_WAKE", "terminates", cycle, "an M that finds l free and claimed, nobody spinning and Ms asleep, polls instead of waking one: the heir sleeps for ever", "NACQ=1"),
	}
	checks := append(base, mutants...)
	for i := range checks {
		checks[i].Defines = slices.Concat(checks[i].Defines, on)
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
func liveMutant(name, claim, want, about string, defines ...string) Check {
	c := mutant(name, want, about, defines...)
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
