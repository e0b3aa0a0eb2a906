package bench

import (
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
// measures. Edits elsewhere (README.md, the Markdown of bench/ such as
// bench/README.md and bench/HISTORY.md, bench/report/) do not change
// results, and bench/report/ is what Publish rewrites.
var measuredPaths = []string{"UPSTREAM", "make.bash", "bench.bash", "patches", "tools", "bench", ":(exclude)bench/report", ":(exclude)bench/*.md"}

// Clean reports whether the run can be reproduced from its commit.
func (p Provenance) Clean() bool { return len(p.Problems()) == 0 }

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
func readProvenance(root string, withFork bool) Provenance {
	var p Provenance
	r := fork.Repo{Root: root}
	if c, err := r.Commit(); err == nil {
		p.Commit = c
		if p.Changed, err = r.Uncommitted(measuredPaths...); err != nil {
			p.Changed = []string{"git status failed: " + err.Error()}
		}
	}
	if withFork {
		p.Fork = r.BuildProblem()
	}
	return p
}
