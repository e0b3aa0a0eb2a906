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
}

// Depths for pan's -m: runs with NACQ acquisitions are shallow, runs with
// FOREVER are not.
const (
	shallow = 100_000
	deep    = 5_000_000
)

// Suite lists the checks that ./test.bash runs. The base model is the Go
// code as it is, and every base check must hold; each mutant breaks one
// thing the Go code does, and its check must find the error named.
//
// Three Ms that each lock twice, or for ever, make more states than a
// check of the default run may take, so the safety checks of three Ms lock
// once each (one of them twice in base/safety-twice), and the liveness
// checks and the runs of any length have two Ms.
//
// on are the features (features.go) of the Go code under check: every
// check defines them, and the mutants of each run too.
func Suite(on ...string) []Check {
	base := []Check{
		{Name: "base/safety", Defines: []string{"NOTIMEOUT", "NACQ=1"}, Depth: shallow, About: "3 Ms, 1 acquisition each, sleeps without timeouts: invariant, the bound, wake order, no lost wakeup"},
		{Name: "base/safety-twice", Defines: []string{"NOTIMEOUT", "NACQ=1", "NACQ1=2"}, Depth: shallow, About: "3 Ms, one of them locking twice, sleeps without timeouts: invariant, the bound, no lost wakeup"},
		{Name: "base/safety-timeout", Defines: []string{"NACQ=1"}, Depth: shallow, About: "3 Ms, 1 acquisition each, sleeps that time out: mutexLeaveStack inside the wait for a hand-off, invariant, the bound"},
		{Name: "base/forever", Defines: []string{"FOREVER", "NM=2"}, Depth: deep, About: "2 Ms locking forever, sleeps that time out: invariant, the bound, wake order"},
		{Name: "base/terminates", Defines: []string{"NM=2"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "2 Ms, 2 acquisitions each: every M finishes, under weak fairness"},
		{Name: "base/patience", Defines: []string{"FOREVER", "NM=2"}, Mode: Liveness, Claim: "patience", Depth: deep, About: "an M whose patience has ended eventually enters, under weak fairness"},
	}
	const (
		lost  = "invalid end state"
		bound = "assertion violated (budget["
	)
	mutants := []Check{
		liveMutant("CAS_CLAIM", "patience", "acceptance cycle", "the first M to join sets mutexClaimed with a CAS that the fast paths' swaps can fail for ever, as the claim CAS before the claim queue did", "FOREVER", "NM=2"),
		liveMutant("OVERDUE_IF_HELD", "patience", "acceptance cycle", "an overdue M that finds l free competes for it with a CAS instead of waiting for a hand-off", "FOREVER", "NM=2"),
		mutant("FAST_IGNORES_C", bound, "lock2's fast path enters without looking for a claim", "NACQ=1", "NACQ1=2"),
		mutant("SLOW_CAS_C", bound, "lock2Slow takes a free mutex with a CAS while it is claimed", "NACQ=1", "NACQ1=2"),
		mutant("QUEUE_LIFO", bound, "mutexHandOff takes out the M that joined last, not first", "NACQ=1", "NACQ1=2"),
		mutant("WAIT_NO_POKE", lost, "mutexWaitForClaim sleeps after its join without poking l", "NOTIMEOUT", "NACQ=1"),
		mutant("WAKE_IGNORES_C", lost, "unlock2Wake does not honour a claim", "NOTIMEOUT", "NACQ=1"),
		mutant("WAKE_CLAIMED_RETURN", lost, "unlock2Wake, finding l claimed while it owns the stack, gives the stack up and returns", "NOTIMEOUT", "NACQ=1"),
		mutant("POKE_BEFORE_LEAVE", lost, "mutexWaitForClaim pokes l before mutexLeaveStack: a waker that takes the M off the stack after the poke clears the hint, and the M never pays it back", "NACQ=1"),
		mutant("LEAVE_HOLDER", lost, "unlock2Wake leaves the waking to an M that took l and owes no hint", "NOTIMEOUT", "NACQ=1"),
		mutant("ACQUIRE_NO_HINT", lost, "lock2Slow takes l without setting the hint: a woken M never pays its debt", "NOTIMEOUT", "NACQ=1"),
		mutant("HINT_EARLY", lost, "unlock2 decides to wake from a load before its swap", "NOTIMEOUT", "NACQ=1"),
		mutant("PUSH_FREE", "assertion violated (((key&2)==0)||", "the push CAS does not require l to be held", "NACQ=1"),
		mutant("LINK_LATE", "assertion violated (phase[me]==2)", "the push publishes the M before writing its link", "NACQ=1"),
		mutant("SPIN_LATE", lost, "the sleeper clears mutexSpinning after its push, not in it", "NOTIMEOUT", "NACQ=1"),
		mutant("SEMA_NOCOUNT", lost, "the semaphore loses a wakeup given before the sleep", "NOTIMEOUT", "NACQ=1"),
		mutant("SEMA_BINARY", lost, "the semaphore holds one wakeup, as Windows' auto-reset event did: a waker's wakeup and then a hand-off's reach an M before it sleeps", "NACQ=1"),
		mutant("WIDE_SWAP", "((key&256)!=0)==", "the release swaps 16 bits and clobbers mutexSpinning", "NACQ=1"),
		mutant("LEAVE_NO_WAIT", "assertion violated (((((key==0)&&", "mutexLeaveStack, not finding its M, returns without taking the wakeup", "NACQ=1"),
		mutant("LEAVE_NO_LOCK", "assertion violated (((key&512)!=0)==(stackOwner!=0))", "mutexLeaveStack unlinks its M without taking mutexStackLocked", "NACQ=1"),
		mutant("LEAVE_TOP_RETRY", "assertion violated ((wakee!=0)&&(rank[wakee]==(nsleep-1)))", "mutexLeaveStack, its CAS as top failed, only redoes the release", "NACQ=1"),
	}
	if slices.Contains(on, "BLAME") {
		mutants = append(mutants,
			mutant("BLAME_NO_WAKE", lost, "unlock2 calls unlock2Wake after a blame only if its swap found the hint: an unlock2Wake that found the blamer owning the stack left the waking to it", "NOTIMEOUT", "NACQ=1"),
			mutant("BLAME_NO_LOCK", "assertion violated ((phase[(v>>11)]==1)&&", "unlock2Blame walks the stack without taking mutexStackLocked: a waker or a leaver changes it under the walk", "NACQ=1"))
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
