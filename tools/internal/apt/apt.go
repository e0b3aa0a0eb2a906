// Package apt installs Debian packages with apt-get, for the checks that
// need a program the machine may lack.
package apt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Install runs apt-get update and then apt-get install for pkgs, without
// questions or recommended extras, the output going to stdout and stderr.
// It needs root.
func Install(ctx context.Context, stdout, stderr io.Writer, pkgs ...string) error {
	if len(pkgs) == 0 {
		return fmt.Errorf("apt.Install: no packages named")
	}
	for _, argv := range commands(pkgs) {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %v", strings.Join(argv, " "), err)
		}
	}
	return nil
}

// commands returns the argv of each command Install runs.
func commands(pkgs []string) [][]string {
	return [][]string{
		{"apt-get", "update"},
		append([]string{"apt-get", "install", "-y", "--no-install-recommends"}, pkgs...),
	}
}

// A Need is a program that a check runs and the Debian package that
// provides it.
type Need struct{ Program, Package string }

// MissingError says which needed programs are missing, why they could not
// be installed, and what to do about it.
type MissingError struct{ Reason string }

func (e *MissingError) Error() string { return e.Reason }

// Host is what Find needs from the machine, so that tests can replace it.
type Host struct {
	LookPath func(string) (string, error)
	Euid     func() int
	Install  func(ctx context.Context, stdout, stderr io.Writer, pkgs ...string) error
}

// Machine is this machine.
var Machine = Host{LookPath: exec.LookPath, Euid: os.Geteuid, Install: Install}

// Find returns the path of each needed program, in order. If some are
// missing it first installs their packages, when it can (as root, with
// apt-get), saying so on stderr. A program that stays missing is a
// *MissingError.
func (h Host) Find(ctx context.Context, stdout, stderr io.Writer, needs ...Need) ([]string, error) {
	var missing, pkgs []string
	for _, n := range needs {
		if _, err := h.LookPath(n.Program); err != nil {
			missing = append(missing, n.Program)
			if !slices.Contains(pkgs, n.Package) {
				pkgs = append(pkgs, n.Package)
			}
		}
	}
	if len(missing) > 0 {
		what := fmt.Sprintf("%s not on PATH", strings.Join(missing, " and "))
		how := fmt.Sprintf("install the Debian package %s (apt-get install %s) or put the programs on PATH",
			strings.Join(pkgs, " and "), strings.Join(pkgs, " "))
		if h.Euid() != 0 {
			return nil, &MissingError{fmt.Sprintf("%s, and installing needs root: %s", what, how)}
		}
		if _, err := h.LookPath("apt-get"); err != nil {
			return nil, &MissingError{fmt.Sprintf("%s, and there is no apt-get to install them: %s", what, how)}
		}
		fmt.Fprintf(stderr, "%s; installing %s\n", what, strings.Join(pkgs, " "))
		if err := h.Install(ctx, stdout, stderr, pkgs...); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &MissingError{fmt.Sprintf("%s, and installing them failed (%v): %s", what, err, how)}
		}
	}
	paths := make([]string, len(needs))
	for i, n := range needs {
		p, err := h.LookPath(n.Program)
		if err != nil {
			return nil, &MissingError{fmt.Sprintf("%s is still not on PATH after installing the %s package", n.Program, n.Package)}
		}
		paths[i] = p
	}
	return paths, nil
}
