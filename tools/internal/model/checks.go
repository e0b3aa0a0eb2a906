package model

import (
	"fmt"
	"regexp"
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
func Suite() []Check {
	base := []Check{
		{Name: "base/safety", Defines: []string{"NOTIMEOUT"}, Depth: shallow, About: "3 Ms, 2 acquisitions each, sleeps without timeouts: invariant, the bound, wake order, no lost wakeup"},
		{Name: "base/safety-timeout", Defines: []string{"NACQ=1"}, Depth: shallow, About: "3 Ms, 1 acquisition each, sleeps that time out: mutexLeaveStack, invariant, the bound"},
		{Name: "base/forever", Defines: []string{"FOREVER"}, Depth: deep, About: "3 Ms locking forever, sleeps that time out: invariant, the bound, wake order"},
		{Name: "base/terminates", Defines: []string{"NACQ=1"}, Mode: Liveness, Claim: "terminates", Depth: shallow, About: "every M finishes, under weak fairness"},
		{Name: "base/claims", Defines: []string{"FOREVER", "NOTIMEOUT"}, Mode: Liveness, Claim: "claims", Depth: deep, About: "a claimant eventually takes l, under weak fairness"},
	}
	const (
		lost  = "invalid end state"
		bound = "assertion violated ((claimant==0)||(claimant==me))"
	)
	mutants := []Check{
		mutant("LEAVE_HOLDER", lost, "unlock2Wake leaves the waking to an M that took l and owes no hint", "NOTIMEOUT"),
		mutant("ACQUIRE_NO_HINT", lost, "lock2Slow takes l without setting the hint: a woken M never pays its debt", "NOTIMEOUT"),
		mutant("HINT_EARLY", lost, "unlock2 decides to wake from a load before its swap", "NOTIMEOUT"),
		mutant("PUSH_FREE", "assertion violated (((key&2)==0)||", "the push CAS does not require l to be held or claimed"),
		mutant("LINK_LATE", "assertion violated ((((phase[1]==1)==", "the push publishes the M before writing its link"),
		mutant("SPIN_LATE", lost, "the sleeper clears mutexSpinning after its push, not in it", "NOTIMEOUT"),
		mutant("SEMA_NOCOUNT", lost, "the semaphore loses a wakeup given before the sleep", "NOTIMEOUT"),
		mutant("WIDE_SWAP", "((key&256)!=0)==", "the release swaps 16 bits and clobbers mutexSpinning"),
		mutant("NO_CLAIM_CHECK", bound, "lock2's fast path enters without looking for a claim"),
		mutant("SLOW_IGNORES_CLAIM", bound, "lock2Slow takes a free mutex that another M claimed"),
		mutant("WAKE_NOT_CLAIM", bound, "an overdue M is owed l but, like the forced wakeup of earlier patches, competes for it without a claim"),
		mutant("CLAIM_KEPT", "assertion violated ((((key&1024)!=0)==((claimant!=0)||(passer!=0)))", "the claim is kept per M, as the per-M count of earlier patches was, and outlives the wait that made it"),
		mutant("CLAIM_TWICE", "assertion violated ((claimant==0)&&(passer==0))", "an overdue M claims l while another M holds the claim"),
		mutant("CLAIM_CLEARED", "assertion violated (claimant==me)", "the claimant clears the claim as it takes l, passing it to none of the Ms that wait for it"),
		mutant("PASS_NEWEST", "assertion violated (bypass[", "the claim passes to the overdue M that pushed itself last, not first"),
		mutant("WAKE_IGNORES_CLAIM", "assertion violated (claimant==me)", "unlock2Wake takes the top off after l was claimed, waking an M that waits for the claim as if passed it (4 Ms, one locking twice)", "NM=4", "NACQ=1", "NACQ1=2", "NOTIMEOUT"),
		mutant("MARK_KEPT", "assertion violated (claimant!=me)", "an M's overdue mark outlives a failed push, so a later ordinary sleeper is passed the claim", "FOREVER"),
		mutant("LEAVE_NO_WAIT", "assertion violated ((((key==0)&&", "mutexLeaveStack, not finding its M, returns without taking the wakeup"),
		mutant("LEAVE_NO_LOCK", "assertion violated ((wakee!=0)&&(rank[wakee]==(nsleep-1)))", "mutexLeaveStack unlinks its M without taking mutexStackLocked"),
		mutant("LEAVE_TOP_RETRY", "assertion violated ((wakee!=0)&&(rank[wakee]==(nsleep-1)))", "mutexLeaveStack, its CAS as top failed, only redoes the release"),
	}
	return append(base, mutants...)
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
