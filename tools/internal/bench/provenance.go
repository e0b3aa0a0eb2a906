package bench

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
)

// Provenance says what a run measured: which commit of this repository,
// whether the files that decide the results had uncommitted changes, and
// whether the fork in goroot/ was what patches/ describes. A published
// result (see Publish) must be reproducible from its commit alone, so only
// a run with no changes and no fork problem may be published.
type Provenance struct {
	Commit  string   `json:"commit"`            // HEAD of the repository, "" if unknown
	Changed []string `json:"changed,omitempty"` // git status lines of measured files
	Fork    string   `json:"fork,omitempty"`    // why goroot/ is not patches/ built, "" if it is
}

// measuredPaths are the parts of the repository that decide what a run
// measures. Edits elsewhere (README.md, bench/report/) do not change
// results, and bench/report/ is what Publish rewrites.
var measuredPaths = []string{"UPSTREAM", "make.bash", "bench.bash", "patches", "tools", "bench", ":(exclude)bench/report", ":(exclude)bench/README.md"}

// Clean reports whether the run can be reproduced from its commit.
func (p Provenance) Clean() bool {
	return p.Commit != "" && len(p.Changed) == 0 && p.Fork == ""
}

// Problems lists, one per line, why the run cannot be reproduced from its
// commit alone.
func (p Provenance) Problems() []string {
	var out []string
	if p.Commit == "" {
		out = append(out, "the repository's commit is unknown (is this a git checkout?)")
	}
	if len(p.Changed) > 0 {
		out = append(out, "uncommitted changes to measured files: "+strings.Join(p.Changed, "; "))
	}
	if p.Fork != "" {
		out = append(out, p.Fork)
	}
	return out
}

// readProvenance inspects the repository at root. withFork says whether
// the run uses the fork, so that goroot/ matters.
func readProvenance(ctx context.Context, root string, withFork bool) Provenance {
	var p Provenance
	if out, err := gitOutput(ctx, root, "rev-parse", "--short=12", "HEAD"); err == nil {
		p.Commit = strings.TrimSpace(out)
	}
	if p.Commit != "" {
		args := append([]string{"status", "--porcelain", "--untracked-files=no", "--"}, measuredPaths...)
		out, err := gitOutput(ctx, root, args...)
		if err != nil {
			p.Changed = []string{"git status failed: " + err.Error()}
		}
		for _, l := range strings.Split(out, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				p.Changed = append(p.Changed, l)
			}
		}
	}
	if withFork {
		p.Fork = forkProblem(fork.Repo{Root: root})
	}
	return p
}

// forkProblem says why goroot/ is not exactly patches/ on the base, built:
// the test binaries compile the runtime from goroot/src as it is, and the
// compiler (whose intrinsics the patches change) is goroot/bin's.
func forkProblem(r fork.Repo) string {
	ok, err := r.Exists()
	switch {
	case err != nil:
		return err.Error()
	case !ok:
		return "goroot/ does not exist: run ./make.bash"
	}
	st, err := r.Status()
	if err != nil {
		return "cannot compare goroot/ with patches/: " + err.Error()
	}
	if !st.InSync() {
		return "goroot/ is not patches/: " + strings.ReplaceAll(st.Problem(), "\n", " ")
	}
	if !r.UpToDate() {
		return "goroot/bin/go was not built from goroot/'s HEAD: run ./make.bash"
	}
	return ""
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}
