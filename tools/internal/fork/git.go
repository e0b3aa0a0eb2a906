package fork

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Identity and date for every commit the tools make in a tree of goroot/, so that the
// same base and patch series always give the same commit hashes.
const (
	toolName  = "go-spinbit"
	toolEmail = "go-spinbit@invalid"
	fixedDate = "Thu, 1 Jan 2026 00:00:00 +0000"
)

// git runs git in dir and returns its standard output. On failure the error
// carries git's standard error.
func git(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("git %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// fixedIdentity makes commits reproducible.
var fixedIdentity = []string{
	"GIT_AUTHOR_NAME=" + toolName, "GIT_AUTHOR_EMAIL=" + toolEmail, "GIT_AUTHOR_DATE=" + fixedDate,
	"GIT_COMMITTER_NAME=" + toolName, "GIT_COMMITTER_EMAIL=" + toolEmail, "GIT_COMMITTER_DATE=" + fixedDate,
}

func revParse(dir, rev string) (string, error) {
	out, err := git(dir, nil, "rev-parse", "-q", "--verify", rev+"^{commit}")
	return strings.TrimSpace(out), err
}
