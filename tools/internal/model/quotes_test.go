package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fakeGo = `package runtime

func lock2(l *mutex) {
	old8 := atomic.Xchg8(k8,
		mutexLocked)
	if old8&mutexLocked == 0 {
		return
	}
}

func unlock2(l *mutex) {
	atomic.Xchg8(key8(&l.key), 0)
}

func lock(l *mutex) {
	lock2(l)
}

func (b *bucket) lock() {
	b.serving.Load()
}
`

func TestCheckQuotes(t *testing.T) {
	goFiles := map[string][]byte{"lock.go": []byte(fakeGo)}
	for _, tt := range []struct {
		name, model string
		wantErr     []string // all must appear; none means no error
	}{
		{"match", "atomic {  /* go lock2: `old8 := atomic.Xchg8(k8, mutexLocked)`, `if old8&mutexLocked == 0` */\n", nil},
		{"multi-line comment", "atomic {  /* go unlock2: `atomic.Xchg8(key8(&l.key), 0)`\n * and `atomic.Xchg8(key8(&l.key),\n 0)` */\n", nil},
		{"other tags", "atomic { /* mutant: x */\natomic { /* model: y */\n/* go lock2: `return` */\n", nil},
		{"statement gone", "line 1\natomic { /* go lock2: `atomic.Or8(k8, mutexSleeping)` */\n",
			[]string{"model line 2: lock2 no longer contains `atomic.Or8(k8, mutexSleeping)`"}},
		{"statement in another function", "/* go unlock2: `return` */\n",
			[]string{"unlock2 no longer contains `return`"}},
		{"no such function", "/* go lock3: `return` */\n", []string{"no function lock3"}},
		{"method", "atomic { /* go bucket.lock: `b.serving.Load()` */\n", nil},
		{"method is not the function", "/* go lock: `b.serving.Load()` */\n", []string{"lock no longer contains `b.serving.Load()`"}},
		{"function is not the method", "/* go bucket.lock: `lock2(l)` */\n", []string{"bucket.lock no longer contains `lock2(l)`"}},
		{"untagged step", "/* go lock2: `return` */\n\tatomic { x = 1 }\n",
			[]string{"model line 2: the atomic step has no comment"}},
		{"nothing quoted", "atomic { /* model: x */ }\n", []string{"quotes no Go statement at all"}},
	} {
		err := CheckQuotes(tt.model, goFiles)
		if len(tt.wantErr) == 0 {
			if err != nil {
				t.Errorf("%s: CheckQuotes = %v; want nil", tt.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: CheckQuotes = nil; want an error", tt.name)
			continue
		}
		for _, w := range tt.wantErr {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: CheckQuotes = %v; want it to contain %q", tt.name, err, w)
			}
		}
	}
}

func TestCheckQuotesTagWithoutQuote(t *testing.T) {
	err := CheckQuotes("/* go lock2: the swap */\n", map[string][]byte{"lock.go": []byte(fakeGo)})
	if err == nil || !strings.Contains(err.Error(), "quotes none of its statements") {
		t.Errorf("CheckQuotes = %v; want an error about a tag without a quote", err)
	}
}

// The real models must quote the real Go code of every base whose tree is
// laid out. goroot/<release> is laid out by ./make.bash, and is missing
// from a bare checkout of this repository.
func TestRealQuotes(t *testing.T) {
	const root = "../../.."
	trees, _ := filepath.Glob(filepath.Join(root, "goroot", "go1.*", "src", "runtime", "lock_spinbit.go"))
	if len(trees) == 0 {
		t.Skip("no base's tree is laid out in goroot/ (./make.bash lays them out)")
	}
	for _, f := range trees {
		goroot := filepath.Dir(filepath.Dir(filepath.Dir(f)))
		opts, err := DefaultOptions(root, goroot)
		if err != nil {
			t.Errorf("%s: %v", goroot, err)
			continue
		}
		if _, err := checkModelQuotes(opts); err != nil {
			t.Errorf("%s: %v", goroot, err)
		}
	}
}

func TestSemasleepFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lock_futex.go", "package runtime\n\nfunc futexsleep() {}\n")
	if _, err := SemasleepFile(dir); err == nil {
		t.Errorf("SemasleepFile found a file where none declares semasleep")
	}
	write("lock_futexsema.go", "package runtime\n\n//go:nosplit\nfunc semasleep(ns int64) int32 { return 0 }\n")
	if f, err := SemasleepFile(dir); err != nil || filepath.Base(f) != "lock_futexsema.go" {
		t.Errorf("SemasleepFile = %q, %v; want lock_futexsema.go", f, err)
	}
	write("lock_futex.go", "package runtime\n\nfunc semasleep(ns int64) int32 { return 0 }\n")
	if _, err := SemasleepFile(dir); err == nil || !strings.Contains(err.Error(), "2 lock_futex*.go") {
		t.Errorf("SemasleepFile with two declarations: %v", err)
	}
}
