package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go-spinbit.dev/tools/internal/fork"
)

func TestNoArgs(t *testing.T) {
	if err := noArgs("make", nil, "go1.27.3"); err != nil {
		t.Errorf("noArgs(make, no words) = %v", err)
	}
	for _, c := range []struct {
		cmd  string
		left []string
		want []string // in the message, in this order
		not  string   // not in the message
	}{
		{"make", []string{"extra-arg"}, []string{`./make.bash takes no arguments, but got "extra-arg": name a base with -base go1.27.3 (flags must come before any other word)`}, "not read"},
		{"make", []string{"go1.23.12"}, []string{`./make.bash takes no arguments, but got "go1.23.12": name a base with -base go1.23.12 (`}, "not read"},
		// go test -list go1.27.3 -base go1.99: the flag package stops at
		// go1.27.3 and would list every base.
		{"test", []string{"go1.27.3", "-base", "go1.99"}, []string{`./test.bash takes no arguments, but got "go1.27.3" "-base" "go1.99"`, "flags after a word are not read (-base here)", "put every flag before any other word", "-base go1.27.3"}, "-run"},
		{"test", []string{"model", "-long"}, []string{"./test.bash", "(-long here)", "choose steps with -run model, or a base with -base go1.27.3"}, ""},
		{"test", []string{"a b"}, []string{"./test.bash", "name a base with -base go1.27.3"}, "-run"},
		{"apply", []string{"go1.27.3", "-discard"}, []string{"tools/patch.bash apply takes no arguments", "(-discard here)", "-base go1.27.3"}, ""},
		{"extract", []string{"-"}, []string{"tools/patch.bash extract takes no arguments", "-base go1.27.3 (flags must"}, "not read"},
		{"check", []string{"all"}, []string{"tools/patch.bash check takes no arguments", "-base go1.27.3"}, ""},
		{"port", []string{"go1.28.1"}, []string{"tools/patch.bash port takes no arguments", "name the new release with -to go1.28.1 ("}, "-base"},
		{"port", []string{"next"}, []string{"tools/patch.bash port", "name the new release with -to, such as -to go1.28.1"}, "-base"},
	} {
		err := noArgs(c.cmd, c.left, "go1.27.3")
		if err == nil {
			t.Errorf("noArgs(%s, %q) = nil, want an error", c.cmd, c.left)
			continue
		}
		msg, rest := err.Error(), err.Error()
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("noArgs(%s, %q) = %q\nwant %q in it (after the parts before)", c.cmd, c.left, msg, w)
				break
			}
			rest = rest[i+len(w):]
		}
		if c.not != "" && strings.Contains(msg, c.not) {
			t.Errorf("noArgs(%s, %q) = %q, should not say %q", c.cmd, c.left, msg, c.not)
		}
	}
}

// Every subcommand but step refuses a word before doing anything: in a
// repository with no goroot/, none of them lays out, builds or ports.
func TestRefuseArgs(t *testing.T) {
	bin := buildFork(t)
	root := newRepo(t, map[string][]string{"go1.23.12": {addsXchg8}, "go1.27.3": {"x"}})
	for _, args := range [][]string{
		{"make", "extra-arg"},
		{"make", "-force", "go1.27.3", "-base", "go1.23.12"},
		{"apply", "go1.27.3"},
		{"extract", "go1.27.3"},
		{"check", "go1.27.3"},
		{"test", "-list", "go1.27.3", "-base", "go1.99"},
		{"port", "go1.28.1"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("fork %s: %v, want exit status 2\n%s", strings.Join(args, " "), err, out)
			continue
		}
		want := "fork: " + script(args[0]) + " takes no arguments, but got "
		if !strings.HasPrefix(string(out), want) || strings.Count(string(out), "\n") != 1 {
			t.Errorf("fork %s printed:\n%s\nwant one line beginning %q", strings.Join(args, " "), out, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "goroot")); !os.IsNotExist(err) {
		t.Errorf("a refused command made goroot/ (stat: %v)", err)
	}
	if _, err := os.Stat(fork.Repo{Root: root, Base: "go1.28.1"}.BaseDir()); !os.IsNotExist(err) {
		t.Errorf("a refused port made bases/go1.28.1 (stat: %v)", err)
	}
}
