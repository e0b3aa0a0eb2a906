package main

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// seriesSteps check each patch of a base on its own, as a reviewer reads
// it: the tree with that patch and those before it must compile, and
// pass the runtime's short tests if the patch changes the runtime.
var seriesSteps = []step{
	{name: "patches/each-compiles", long: true, run: eachPatchCompiles},
	{name: "patches/each-tests-runtime", long: true, limit: 150 * time.Minute, run: eachPatchTestsRuntime},
}

// eachPatchTestPackages are the packages eachPatchTestsRuntime tests at
// each patch: those runtime/test-short tests in the built fork.
var eachPatchTestPackages = []string{"runtime", "sync", "internal/runtime/atomic"}

// eachPatchTestLimit is go test's -timeout at each patch: several times
// what go test -short runtime takes on 2 loaded cores, so that a hang
// fails the step long before its own limit, naming the patch.
const eachPatchTestLimit = 12 * time.Minute

// eachPatchCompiles applies the base's series to a fresh worktree of its
// tree, and at each patch's commit vets the packages the patch changes
// (go vet compiles them and their tests), runtime with the spinbit
// experiment on and off, and with -tags spinbittorture once the tree has
// torture mode. It uses the fork's built compiler and go command for
// every commit: the series' compiler changes are its own packages' to
// compile, not tools to run.
func eachPatchCompiles(ctx context.Context, r fork.Repo) error {
	wt, commits, remove, err := seriesCommits(ctx, r, "each")
	if err != nil {
		return err
	}
	defer remove()
	gocmd, env := worktreeGo(wt)
	var failed []string
	for _, c := range commits {
		if err := command(ctx, wt, nil, "git", "checkout", "-q", "--detach", c); err != nil {
			return err
		}
		subject, err := output(ctx, wt, nil, "git", "log", "-1", "--format=%s")
		if err != nil {
			return err
		}
		files, err := output(ctx, wt, nil, "git", "diff-tree", "--no-commit-id", "--name-only", "-r", c)
		if err != nil {
			return err
		}
		pkgs := changedPackages(strings.Fields(files))
		fmt.Printf("%s %s: %s\n", c[:12], strings.TrimSpace(subject), strings.Join(pkgs, " "))
		experiment := fileExists(filepath.Join(wt, "src", "internal", "goexperiment", "exp_spinbitmutex_on.go"))
		torture := fileExists(filepath.Join(wt, "src", "runtime", "lock_torture_on.go"))
		for _, v := range patchChecks(pkgs, experiment, torture) {
			out, err := captureCommand(ctx, filepath.Join(wt, "src"), append(env, v.env...), gocmd, v.args...)
			if err != nil {
				fmt.Printf("\tFAIL %s %s\n%s\n", strings.Join(v.env, " "), strings.Join(v.args, " "), indent(out))
				failed = append(failed, fmt.Sprintf("%q (%s %s)", strings.TrimSpace(subject), strings.Join(v.env, " "), strings.Join(v.args, " ")))
				continue
			}
			fmt.Printf("\tok %s %s\n", strings.Join(v.env, " "), strings.Join(v.args, " "))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d checks failed at patches of the series, which must each compile on their own: %s", len(failed), strings.Join(failed, "; "))
	}
	return nil
}

// eachPatchTestsRuntime applies the base's series to a fresh worktree of
// its tree, as eachPatchCompiles does, and at each patch that changes the
// runtime's own code (changesRuntime) runs go test -short of
// eachPatchTestPackages with the fork's built compiler and go command:
// with the default experiments, and again with GOEXPERIMENT=nospinbitmutex
// once the tree has the experiment. It stops at the first patch whose
// tests fail, naming it and the experiment: the patches after it are
// built on it. The last patch is left out: its tree is the built fork's,
// which runtime/test-short and runtime/test-short-nospinbit test.
func eachPatchTestsRuntime(ctx context.Context, r fork.Repo) error {
	wt, list, remove, err := seriesCommits(ctx, r, "each-tests")
	if err != nil {
		return err
	}
	defer remove()
	gocmd, env := worktreeGo(wt)
	tested := 0
	for _, c := range list[:len(list)-1] {
		files, err := output(ctx, wt, nil, "git", "diff-tree", "--no-commit-id", "--name-only", "-r", c)
		if err != nil {
			return err
		}
		subject, err := output(ctx, wt, nil, "git", "log", "-1", "--format=%s", c)
		if err != nil {
			return err
		}
		subject = strings.TrimSpace(subject)
		if !changesRuntime(strings.Fields(files)) {
			fmt.Printf("%s %s: changes no file of the runtime\n", c[:12], subject)
			continue
		}
		if err := command(ctx, wt, nil, "git", "checkout", "-q", "--detach", c); err != nil {
			return err
		}
		experiment := fileExists(filepath.Join(wt, "src", "internal", "goexperiment", "exp_spinbitmutex_on.go"))
		for _, exp := range patchTestExperiments(experiment) {
			args := append([]string{"test", "-short", "-timeout", eachPatchTestLimit.String()}, eachPatchTestPackages...)
			what := "go test -short " + strings.Join(eachPatchTestPackages, " ")
			runEnv := slices.Clip(env)
			if exp != "" {
				runEnv = append(runEnv, "GOEXPERIMENT="+exp)
				what = "GOEXPERIMENT=" + exp + " " + what
			}
			fmt.Printf("%s %s: %s\n", c[:12], subject, what)
			start := time.Now()
			if err := command(ctx, filepath.Join(wt, "src"), runEnv, gocmd, args...); err != nil {
				return fmt.Errorf("at the patch %q, %s failed (%v): each patch that changes the runtime must pass its tests on its own, before the patches after it", subject, what, err)
			}
			fmt.Printf("\tok in %s\n", time.Since(start).Round(time.Second))
		}
		tested++
	}
	fmt.Printf("%d of the %d patches before the series' last change the runtime, and each passes go test -short %s on its own, with the spinbit experiment off too where the tree has it\n", tested, len(list)-1, strings.Join(eachPatchTestPackages, " "))
	return nil
}

// patchTestExperiments are the GOEXPERIMENT settings eachPatchTestsRuntime
// tests a patch with: the default ("") and, where the tree has the spinbit
// experiment (experiment), the mutex it brings back.
func patchTestExperiments(experiment bool) []string {
	if experiment {
		return []string{"", "nospinbitmutex"}
	}
	return []string{""}
}

// seriesCommits applies r's series to a fresh worktree of its tree (a
// temporary folder named after pattern), makes the fork's build usable
// there (borrowBuild), and returns the worktree, the commits of the
// series' patches in order, and the function that removes the worktree.
// A series that applies to no commit is an error.
func seriesCommits(ctx context.Context, r fork.Repo, pattern string) (wt string, commits []string, remove func(), err error) {
	s, err := fork.ReadSeries(r.Patches())
	if err != nil {
		return "", nil, nil, err
	}
	_, wt, remove, err = seriesWorktree(ctx, r, pattern, s)
	if err != nil {
		return "", nil, nil, err
	}
	if err := borrowBuild(ctx, r, wt); err != nil {
		remove()
		return "", nil, nil, err
	}
	out, err := output(ctx, wt, nil, "git", "rev-list", "--reverse", fork.NamedTag+"..HEAD")
	if err != nil {
		remove()
		return "", nil, nil, err
	}
	commits = strings.Fields(out)
	if len(commits) == 0 {
		remove()
		return "", nil, nil, fmt.Errorf("the series of %s applied to no commit", r.Base)
	}
	return wt, commits, remove, nil
}

// worktreeGo is the fork's go command in the worktree wt that
// seriesCommits made, and the environment that puts its bin/ first on
// PATH, so that every commit is built with the fork's toolchain.
func worktreeGo(wt string) (gocmd string, env []string) {
	bin := filepath.Join(wt, "bin")
	return filepath.Join(bin, "go"), []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
}

// changesRuntime reports whether files, paths relative to the tree, include
// one of the runtime's own code: under src/runtime/ (its testdata
// included, which its tests build) or src/internal/runtime/ (packages
// only the runtime imports, such as its atomics).
func changesRuntime(files []string) bool {
	for _, f := range files {
		if strings.HasPrefix(f, "src/runtime/") || strings.HasPrefix(f, "src/internal/runtime/") {
			return true
		}
	}
	return false
}

// changedPackages returns the import paths of the Go packages of the
// standard tree (cmd included) in which files, paths relative to the
// tree, change a .go file, testdata aside.
func changedPackages(files []string) []string {
	var pkgs []string
	for _, f := range files {
		rel, ok := strings.CutPrefix(f, "src/")
		if !ok || !strings.HasSuffix(f, ".go") || slices.Contains(strings.Split(rel, "/"), "testdata") {
			continue
		}
		if dir := path.Dir(rel); dir != "." && !slices.Contains(pkgs, dir) {
			pkgs = append(pkgs, dir)
		}
	}
	slices.Sort(pkgs)
	return pkgs
}

// patchCheck is one go command run at a patch: its arguments and its
// environment beyond the step's.
type patchCheck struct {
	env  []string
	args []string
}

// patchChecks are the runs at a patch that changes pkgs: go vet of them,
// and of runtime, if it is one, with the spinbit experiment on and off if
// the tree has the experiment, and torture mode built if it has that.
func patchChecks(pkgs []string, experiment, torture bool) []patchCheck {
	if len(pkgs) == 0 {
		return nil
	}
	var checks []patchCheck
	var others []string
	for _, p := range pkgs {
		if p != "runtime" {
			others = append(others, p)
		}
	}
	if len(others) > 0 {
		checks = append(checks, patchCheck{args: append([]string{"vet"}, others...)})
	}
	switch {
	case len(others) == len(pkgs):
	case !experiment:
		checks = append(checks, patchCheck{args: []string{"vet", "runtime"}})
	default:
		checks = append(checks,
			patchCheck{env: []string{"GOEXPERIMENT=spinbitmutex"}, args: []string{"vet", "runtime"}},
			patchCheck{env: []string{"GOEXPERIMENT=nospinbitmutex"}, args: []string{"vet", "runtime"}})
		if torture {
			checks = append(checks, patchCheck{env: []string{"GOEXPERIMENT=spinbitmutex"}, args: []string{"build", "-tags", "spinbittorture", "runtime"}})
		}
	}
	return checks
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// borrowBuild makes the worktree wt of r's tree usable with r's build: a
// copy of its go command in wt/bin (the go command finds its GOROOT from
// where it lies), its compiler and other tools through a link to its
// pkg/tool and pkg/include, and the files make.bash generates into src/,
// which git ignores.
func borrowBuild(ctx context.Context, r fork.Repo, wt string) error {
	if err := os.MkdirAll(filepath.Join(wt, "bin"), 0o777); err != nil {
		return err
	}
	data, err := os.ReadFile(r.GoCommand())
	if err != nil {
		return fmt.Errorf("the fork's go command: %v (run ./make.bash -base %s)", err, r.Base)
	}
	if err := os.WriteFile(filepath.Join(wt, "bin", "go"), data, 0o777); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(wt, "pkg"), 0o777); err != nil {
		return err
	}
	for _, d := range []string{"tool", "include"} {
		if err := os.Symlink(filepath.Join(r.Goroot(), "pkg", d), filepath.Join(wt, "pkg", d)); err != nil {
			return err
		}
	}
	ignored, err := output(ctx, r.Goroot(), nil, "git", "status", "--porcelain", "--ignored", "src")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(ignored, "\n") {
		f, ok := strings.CutPrefix(line, "!! ")
		if !ok || !strings.HasSuffix(f, ".go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(r.Goroot(), f))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(wt, f), data, 0o666); err != nil {
			return err
		}
	}
	return nil
}
