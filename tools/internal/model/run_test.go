package model

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go-spinbit.dev/tools/internal/apt"
)

// fakeHost has the programs in have and records installs.
type fakeHost struct {
	have       map[string]bool
	root       bool
	installErr error
	installed  [][]string
}

func (f *fakeHost) host() apt.Host {
	return apt.Host{
		LookPath: func(name string) (string, error) {
			if f.have[name] {
				return "/usr/bin/" + name, nil
			}
			return "", exec.ErrNotFound
		},
		Euid: func() int {
			if f.root {
				return 0
			}
			return 1000
		},
		Install: func(ctx context.Context, stdout, stderr io.Writer, pkgs ...string) error {
			f.installed = append(f.installed, pkgs)
			if f.installErr != nil {
				return f.installErr
			}
			for _, p := range pkgs {
				for _, n := range needs {
					if n.Package == p {
						f.have[n.Program] = true
					}
				}
			}
			return nil
		},
	}
}

func TestFindTools(t *testing.T) {
	ctx := context.Background()
	t.Run("present", func(t *testing.T) {
		f := &fakeHost{have: map[string]bool{"spin": true, "cc": true, "nice": true}}
		got, err := findTools(ctx, f.host(), io.Discard, io.Discard)
		if err != nil || got != (Tools{"/usr/bin/spin", "/usr/bin/cc", "/usr/bin/nice"}) || f.installed != nil {
			t.Errorf("findTools = %+v, %v, installs %v; want all found and nothing installed", got, err, f.installed)
		}
	})
	t.Run("installs spin", func(t *testing.T) {
		f := &fakeHost{have: map[string]bool{"cc": true, "apt-get": true}, root: true}
		got, err := findTools(ctx, f.host(), io.Discard, io.Discard)
		if err != nil || got.Spin != "/usr/bin/spin" || got.Nice != "" {
			t.Errorf("findTools = %+v, %v; want spin installed and no nice", got, err)
		}
		if len(f.installed) != 1 || strings.Join(f.installed[0], " ") != "spin" {
			t.Errorf("installed %v; want [[spin]]", f.installed)
		}
	})
	for _, tt := range []struct {
		name string
		f    *fakeHost
		want string
	}{
		{"not root", &fakeHost{have: map[string]bool{"apt-get": true}},
			"spin and cc not on PATH, and installing needs root: install the Debian package spin and gcc"},
		{"no apt-get", &fakeHost{have: map[string]bool{"cc": true}, root: true},
			"spin not on PATH, and there is no apt-get"},
		{"install fails", &fakeHost{have: map[string]bool{"cc": true, "apt-get": true}, root: true, installErr: errors.New("E: no network")},
			"installing them failed (E: no network)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := findTools(ctx, tt.f.host(), io.Discard, io.Discard)
			reason, ok := Skipped(err)
			if !ok || !strings.Contains(reason, tt.want) {
				t.Errorf("findTools error = %v; want a skip whose reason contains %q", err, tt.want)
			}
		})
	}
}

// TestRealModel runs spin on the real models: the smallest check of the
// base model and the semaphore's must hold and a mutant of each must be
// rejected, as the model/spin step of ./test.bash expects of the whole
// suite.
func TestRealModel(t *testing.T) {
	var tools Tools
	for _, n := range needs {
		p, err := exec.LookPath(n.Program)
		if err != nil {
			t.Skipf("%s is not on PATH (the model/spin step of ./test.bash installs the %s package)", n.Program, n.Package)
		}
		if n.Program == "spin" {
			tools.Spin = p
		} else {
			tools.CC = p
		}
	}
	checks := map[string]Check{}
	for _, c := range Suite() {
		checks[c.Name] = c
	}
	for _, name := range []string{"base/safety-2", "mutant/push-nohint", "msema/count-2", "msema-mutant/no-withdraw"} {
		c, ok := checks[name]
		if !ok {
			t.Fatalf("the suite has no check %s", name)
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			r, _, err := tools.Run(context.Background(), dir, filepath.Join(modelDir, c.ModelFile()), c)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Judge(r); err != nil {
				t.Error(err)
			}
			if r.States == 0 {
				t.Errorf("pan stored no states: %+v", r)
			}
			if _, err := os.Stat(dir + "/pan"); err != nil {
				t.Errorf("the verifier was not built in the work directory: %v", err)
			}
		})
	}
}
