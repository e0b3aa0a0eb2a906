package model

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const modelDir = "../../../model"

func readModel(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(modelDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSuiteMatchesModel(t *testing.T) {
	models := map[string]string{MutexModel: readModel(t, MutexModel), SemaModel: readModel(t, SemaModel)}
	names := map[string]bool{}
	checked := map[string]map[string]bool{MutexModel: {}, SemaModel: {}}
	var all []string
	for _, f := range features {
		all = append(all, f.define)
	}
	for _, c := range Suite(all...) {
		if names[c.Name] {
			t.Errorf("two checks are named %s", c.Name)
		}
		names[c.Name] = true
		model, ok := models[c.ModelFile()]
		if !ok {
			t.Errorf("%s: no model %s", c.Name, c.ModelFile())
			continue
		}
		if err := c.checkDefines(model); err != nil {
			t.Error(err)
		}
		if c.Mode == Liveness && !regexp.MustCompile(`\bltl `+c.Claim+` \{`).MatchString(model) {
			t.Errorf("%s: the model has no ltl formula %q", c.Name, c.Claim)
		}
		if c.Depth <= 0 {
			t.Errorf("%s: Depth %d; pan needs a positive -m", c.Name, c.Depth)
		}
		for _, n := range c.macroNames() {
			if strings.HasPrefix(n, "MUTANT_") {
				checked[c.ModelFile()][n] = true
				if c.Want == "" {
					t.Errorf("%s defines %s and expects no error; a mutant's check must expect one", c.Name, n)
				}
			}
		}
	}
	// A mutant a model has but the suite never runs is a check lost.
	for name, model := range models {
		for _, m := range regexp.MustCompile(`\bMUTANT_[A-Z0-9_]+`).FindAllString(model, -1) {
			if !checked[name][m] {
				t.Errorf("%s has %s, but no check of the suite defines it", name, m)
			}
		}
	}
}

func TestCheckDefinesWholeWords(t *testing.T) {
	c := Check{Name: "x", Defines: []string{"NM=4", "MUTANT_LIFO"}}
	if err := c.checkDefines("#if NM >= 4\n#ifdef MUTANT_LIFO\n"); err != nil {
		t.Errorf("checkDefines: %v; want nil", err)
	}
	err := c.checkDefines("#if NMX >= 4\n#ifdef MUTANT_LIFO_2\n")
	if err == nil || !strings.Contains(err.Error(), "never mentions the macro NM") {
		t.Errorf("checkDefines with NM only inside NMX: %v; want an error naming NM", err)
	}
}

func TestJudge(t *testing.T) {
	pass := Check{Name: "base/x"}
	mut := Check{Name: "mutant/x", Want: "invalid end state"}
	holds := Result{States: 10}
	lost := Result{Errors: 1, Violation: "invalid end state", Incomplete: "search not completed"}
	assertion := Result{Errors: 1, Violation: "assertion violated (holders==1)"}
	for _, tt := range []struct {
		name    string
		c       Check
		r       Result
		wantErr string // "" for nil
	}{
		{"holds", pass, holds, ""},
		{"error found", pass, assertion, `pan found "assertion violated (holders==1)"`},
		{"incomplete", pass, Result{Incomplete: "max search depth too small"}, "search is incomplete"},
		{"mutant rejected", mut, lost, ""},
		{"mutant survived", mut, holds, "the mutant survived"},
		{"mutant incomplete", mut, Result{Incomplete: "out of memory"}, "search is incomplete (out of memory)"},
		{"mutant wrong error", mut, assertion, `and it must find "invalid end state"`},
	} {
		err := tt.c.Judge(tt.r)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: Judge = %v; want nil", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: Judge = %v; want an error containing %q", tt.name, err, tt.wantErr)
		}
	}
}

func TestArgs(t *testing.T) {
	c := Check{Name: "l", Defines: []string{"FOREVER", "NM=4"}, Mode: Liveness, Claim: "wakes", Depth: 7}
	if got, want := strings.Join(c.spinArgs("m.pml"), " "), "-DFOREVER -DNM=4 -a m.pml"; got != want {
		t.Errorf("spinArgs = %q; want %q", got, want)
	}
	if got, want := strings.Join(c.panArgs(), " "), "-m7 -a -f -N wakes"; got != want {
		t.Errorf("panArgs = %q; want %q", got, want)
	}
	cc := strings.Join(c.ccArgs(), " ")
	if strings.Contains(cc, "-DSAFETY") || !strings.Contains(cc, "-DNFAIR=") {
		t.Errorf("ccArgs for liveness = %q; want weak fairness room and no -DSAFETY", cc)
	}
	s := Check{Name: "s", Depth: 9, Want: "x"}
	if got, want := strings.Join(s.panArgs(), " "), "-m9"; got != want {
		t.Errorf("panArgs = %q; want %q", got, want)
	}
	cc = strings.Join(s.ccArgs(), " ")
	if !strings.Contains(cc, "-DSAFETY -DNOCLAIM") {
		t.Errorf("ccArgs for safety = %q; want -DSAFETY -DNOCLAIM", cc)
	}
	if !strings.Contains(cc, fmt.Sprintf("-DMEMLIM=%d ", defaultMemLimitMB)) {
		t.Errorf("ccArgs without a memory bound = %q; want the default -DMEMLIM=%d", cc, defaultMemLimitMB)
	}
	s.MemLimitMB = 16000
	if cc := strings.Join(s.ccArgs(), " "); !strings.Contains(cc, "-DMEMLIM=16000 ") {
		t.Errorf("ccArgs with MemLimitMB 16000 = %q; want -DMEMLIM=16000", cc)
	}
}

// The checks that may take more memory than the default run alone, after
// the others; each group keeps the suite's order.
func TestSplitBig(t *testing.T) {
	all := []Check{{Name: "a"}, {Name: "b", MemLimitMB: 16000}, {Name: "c", MemLimitMB: defaultMemLimitMB}, {Name: "d", MemLimitMB: 8000}}
	small, big := splitBig(all)
	names := func(cs []Check) string {
		var n []string
		for _, c := range cs {
			n = append(n, c.Name)
		}
		return strings.Join(n, " ")
	}
	if got := names(small); got != "a c" {
		t.Errorf("splitBig: small %s; want a c", got)
	}
	if got := names(big); got != "b d" {
		t.Errorf("splitBig: big %s; want b d", got)
	}
	for _, c := range Suite() {
		if c.MemLimitMB > defaultMemLimitMB && !c.Long {
			t.Errorf("%s may take %d MB but is not Long: the default run must fit the default bound", c.Name, c.MemLimitMB)
		}
	}
}

// A feature of the Go code is defined in every check of the mutex's
// model; without it, no check defines it.
func TestSuiteFeatures(t *testing.T) {
	without, with := Suite(), Suite("BLAME")
	if len(with) != len(without) {
		t.Errorf("Suite(BLAME) has %d checks, Suite() %d; want as many", len(with), len(without))
	}
	for _, c := range without {
		if slices.Contains(c.Defines, "BLAME") {
			t.Errorf("Suite() has %s with %v", c.Name, c.Defines)
		}
	}
	for _, c := range with {
		if got, want := slices.Contains(c.Defines, "BLAME"), c.ModelFile() == MutexModel; got != want {
			t.Errorf("Suite(BLAME): %s (of %s) defines BLAME: %v; want %v (features are the mutex model's)", c.Name, c.ModelFile(), got, want)
		}
	}
}

// The default run leaves out the checks marked Long; -long runs them all.
func TestSelectChecks(t *testing.T) {
	all := []Check{{Name: "a"}, {Name: "b", Long: true}, {Name: "c"}}
	var names []string
	for _, c := range selectChecks(all, false) {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "a c" {
		t.Errorf("selectChecks(long=false) = %s; want a c", got)
	}
	if got := selectChecks(all, true); len(got) != 3 {
		t.Errorf("selectChecks(long=true) has %d checks; want 3", len(got))
	}
	long := 0
	for _, c := range Suite() {
		if c.Long {
			long++
		}
	}
	if long == 0 || long == len(Suite()) {
		t.Errorf("Suite has %d Long checks of %d; want some, not all", long, len(Suite()))
	}
}
