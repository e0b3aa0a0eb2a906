// Package apt installs Debian packages with apt-get, for the checks that
// need a program the machine may lack.
package apt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
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
