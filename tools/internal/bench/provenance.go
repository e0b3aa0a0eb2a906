package bench

import (
	"fmt"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
)

// Provenance says what a run measured: which commit of this repository,
// which base the fork was on, whether the files that decide the results
// had uncommitted changes, and whether the fork in goroot/<base> was what
// bases/<base>/patches/ describes. A published
// result (see Publish) must be reproducible from its commit alone, so only
// a run with no changes and no fork problem may be published.
type Provenance struct {
	Commit  string     `json:"commit"`            // HEAD of the repository, "" if unknown
	Base    string     `json:"base,omitempty"`    // the fork's base, such as go1.27.3
	Changed []string   `json:"changed,omitempty"` // git status lines of measured files
	Fork    string     `json:"fork,omitempty"`    // why goroot/<base> is not its patches/ built, "" if it is
	Mutex   *MutexCode `json:"mutex,omitempty"`   // the runtime mutex of the base's patches/, if they could be read
}

// measuredPaths are the parts of the repository that decide what a run
// of the fork on base measures. Edits elsewhere (README.md, the Markdown
// of bench/ such as bench/README.md and bench/RESULTS.md, bench/report/,
// the other bases) do not change results, and bench/report/ is what
// Publish rewrites.
func measuredPaths(base string) []string {
	return []string{fork.BasesDir + "/" + base, "make.bash", "bench.bash", "tools", "bench", ":(exclude)bench/report", ":(exclude)bench/*.md"}
}

// measuringFiles are the files of this package that change the numbers a
// run records: how the test binaries are built (build.go, env.go, and
// bundle.go for a bundle), and how they are run (execute.go, runner.sh).
// The rest of the package reads, tables and draws what the runs wrote,
// which Pool does again from the raw output.
var measuringFiles = []string{"build.go", "env.go", "bundle.go", "execute.go", "runner.sh"}

// poolPaths are the parts of the repository in which the commits of runs
// that pool must agree: what the runs measured, which is the base's
// patches and pin, bench/'s workloads and helpers, and measuringFiles.
// It is narrower than measuredPaths, which decides whether a run's tree
// was clean: runs made in different sessions, days apart, come from
// commits that differ in docs and tools that change no number.
func poolPaths(base string) []string {
	paths := []string{fork.BasesDir + "/" + base, "bench", ":(exclude)bench/report", ":(exclude)bench/*.md"}
	for _, f := range measuringFiles {
		paths = append(paths, "tools/internal/bench/"+f)
	}
	return paths
}

// poolPathsText says in words what poolPaths holds.
func poolPathsText(base string) string {
	return fmt.Sprintf("%s/%s/, bench/ (its docs and report aside) and tools/internal/bench/{%s}", fork.BasesDir, base, strings.Join(measuringFiles, ","))
}

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

// readProvenance inspects the repository at root for a run of the fork on
// base. withFork says whether the run uses the fork, so that goroot/<base>
// matters.
func readProvenance(root, base string, withFork bool) Provenance {
	p := Provenance{Base: base}
	r := fork.Repo{Root: root, Base: base}
	if c, err := r.Commit(); err == nil {
		p.Commit = c
		if p.Changed, err = r.Uncommitted(measuredPaths(base)...); err != nil {
			p.Changed = []string{"git status failed: " + err.Error()}
		}
	}
	if withFork {
		p.Fork = r.BuildProblem()
	}
	if m, err := treeMutexCode(root, base); err == nil {
		p.Mutex = &m
	}
	return p
}
