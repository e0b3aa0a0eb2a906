package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadProvenance(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o777)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if p := readProvenance(root, "go1.27.3", false); p.Commit != "" || p.Clean() {
		t.Errorf("outside a git checkout: %+v, want no commit and not clean", p)
	}

	for _, f := range []string{"README.md", "bases/go1.27.3/patches/0001-a.patch", "bases/go1.23.12/patches/0001-a.patch", "bench/chan_test.go", "bench/README.md", "bench/RESULTS.md", "bench/report/README.md", "tools/go.mod"} {
		write(f, "v1\n")
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "base")

	p := readProvenance(root, "go1.27.3", false)
	if len(p.Commit) != 12 || !p.Clean() {
		t.Errorf("fresh commit: %+v, want a 12-digit commit and clean", p)
	}
	// Documentation, the published report and the other bases do not
	// change what a run measures; untracked files (bench/results/) are
	// not looked at.
	write("README.md", "v2\n")
	write("bases/go1.23.12/patches/0001-a.patch", "v2\n")
	write("bench/README.md", "v2\n")
	write("bench/RESULTS.md", "v2\n")
	write("bench/report/README.md", "v2\n")
	write("bench/results/x/run.json", "{}\n")
	if p := readProvenance(root, "go1.27.3", false); !p.Clean() || p.Base != "go1.27.3" {
		t.Errorf("only docs, report and another base changed: %+v, want clean, of base go1.27.3", p)
	}
	write("bases/go1.27.3/patches/0001-a.patch", "v2\n")
	write("bench/chan_test.go", "v2\n")
	p = readProvenance(root, "go1.27.3", false)
	if p.Clean() || len(p.Changed) != 2 || !strings.Contains(strings.Join(p.Changed, "|"), "patches/0001-a.patch") {
		t.Errorf("patch and benchmark edited: %+v, want both listed", p)
	}

	// The fork matters only when the run uses it.
	git("checkout", "-q", "--", ".")
	p = readProvenance(root, "go1.27.3", true)
	if p.Clean() || !strings.Contains(p.Fork, "run ./make.bash -base go1.27.3") {
		t.Errorf("fork used but goroot/ missing: %+v, want a problem saying to run ./make.bash", p)
	}
}
