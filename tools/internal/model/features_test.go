package model

import (
	"slices"
	"strings"
	"testing"
)

const featureModel = `a
#ifdef BLAME
b
#if NM >= 3
c
#endif
#else
d
#endif
#ifndef BLAME
e
#endif
#ifdef FOREVER
f
#else
g
#endif
h`

// withTestFeature makes BLAME, marked by unlock2Blame, the one feature for
// the rest of the test, so that these tests of the machinery do not depend
// on the model's own features.
func withTestFeature(t *testing.T) {
	t.Helper()
	saved := features
	features = []feature{{define: "BLAME", fn: "unlock2Blame"}}
	t.Cleanup(func() { features = saved })
}

func TestActiveModel(t *testing.T) {
	withTestFeature(t)
	for _, tt := range []struct {
		on   []string
		want string // the lines kept, in order
	}{
		{nil, "a d e #ifdef FOREVER f #else g #endif h"},
		{[]string{"BLAME"}, "a b #if NM >= 3 c #endif #ifdef FOREVER f #else g #endif h"},
	} {
		out := activeModel(featureModel, tt.on)
		if n, m := strings.Count(out, "\n"), strings.Count(featureModel, "\n"); n != m {
			t.Errorf("on %v: %d lines, want %d: the lines must keep their numbers", tt.on, n+1, m+1)
		}
		if got := strings.Join(strings.Fields(out), " "); got != tt.want {
			t.Errorf("on %v: kept %q; want %q", tt.on, got, tt.want)
		}
	}
}

func TestTreeFeatures(t *testing.T) {
	withTestFeature(t)
	if got := treeFeatures(map[string]string{"unlock2": "", "unlock2Blame": ""}); !slices.Equal(got, []string{"BLAME"}) {
		t.Errorf("treeFeatures with unlock2Blame = %v; want [BLAME]", got)
	}
	if got := treeFeatures(map[string]string{"unlock2": ""}); len(got) != 0 {
		t.Errorf("treeFeatures without unlock2Blame = %v; want none", got)
	}
}

// The quotes of a feature's steps are checked on a tree that has the
// feature and left out on one that does not; the steps for a tree without
// it are left out on one that has it.
func TestCheckQuotesFeatures(t *testing.T) {
	withTestFeature(t)
	const model = "atomic { /* go unlock2: `atomic.Xchg8(key8(&l.key), 0)` */\n" +
		"#ifdef BLAME\n" +
		"atomic { /* go unlock2Blame: `v := atomic.Loaduintptr(&l.key)` */\n" +
		"#else\n" +
		"atomic { /* go unlock2: `if old8&mutexSleeping != 0 {` */\n" +
		"#endif\n"
	if err := CheckQuotes(model, map[string][]byte{"lock.go": []byte(fakeGo)}); err == nil || !strings.Contains(err.Error(), "model line 5: unlock2 no longer contains") {
		t.Errorf("without the feature, the #else branch's quote must be checked: %v", err)
	}
	withBlame := fakeGo + "\nfunc unlock2Blame(l *mutex) bool {\n\tv := atomic.Loaduintptr(&l.key)\n\treturn v != 0\n}\n"
	on, err := checkQuotes(model, map[string][]byte{"lock.go": []byte(withBlame)})
	if err != nil || !slices.Equal(on, []string{"BLAME"}) {
		t.Errorf("with the feature: %v, %v; want [BLAME] and no error (the #else branch left out)", on, err)
	}
	wrong := strings.Replace(withBlame, "v := atomic.Loaduintptr(&l.key)", "v := l.key", 1)
	if err := CheckQuotes(model, map[string][]byte{"lock.go": []byte(wrong)}); err == nil || !strings.Contains(err.Error(), "model line 3: unlock2Blame no longer contains") {
		t.Errorf("with the feature, its quotes must be checked: %v", err)
	}
	noBlameModel := "atomic { /* go unlock2: `atomic.Xchg8(key8(&l.key), 0)` */\n#ifdef BLAME\natomic { /* go unlock2Blame: `v := atomic.Loaduintptr(&l.key)` */\n#endif\n"
	if on, err := checkQuotes(noBlameModel, map[string][]byte{"lock.go": []byte(fakeGo)}); err != nil || len(on) != 0 {
		t.Errorf("without the feature, its quotes must be left out: %v, %v", on, err)
	}
}
