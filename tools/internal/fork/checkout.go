package fork

import (
	"errors"
	"fmt"
	"strings"
)

// Commit returns the repository's own HEAD (not a tree's of goroot/), abbreviated
// to 12 hex digits.
func (r Repo) Commit() (string, error) {
	full, err := revParse(r.Root, "HEAD")
	if err != nil {
		return "", err
	}
	return full[:min(12, len(full))], nil
}

// Uncommitted lists the repository's tracked files under paths (git
// pathspecs) that differ from HEAD, as git status --porcelain lines.
func (r Repo) Uncommitted(paths ...string) ([]string, error) {
	args := append([]string{"status", "--porcelain", "--untracked-files=no", "--"}, paths...)
	out, err := git(r.Root, nil, args...)
	if err != nil {
		return nil, err
	}
	return nonEmptyLines(out), nil
}

// BuildProblem says why goroot/<Base> is not exactly the release plus the
// base's patches/, built: what a program built with its bin/go gets is its
// src as it is, compiled by its bin's compiler, whose intrinsics the
// patches change. It returns "" when both match patches/.
func (r Repo) BuildProblem() string {
	tree, patches := r.rel(r.Goroot()), r.rel(r.Patches())
	ok, err := r.Exists()
	switch {
	case err != nil:
		return err.Error()
	case !ok:
		return tree + " does not exist: run ./make.bash -base " + r.Base
	}
	st, err := r.Status()
	if err != nil {
		return "cannot compare " + tree + " with " + patches + ": " + err.Error()
	}
	if !st.InSync() {
		return tree + " is not " + patches + ": " + strings.ReplaceAll(st.Problem(), "\n", " ")
	}
	if !r.UpToDate() {
		return tree + "bin/go was not built from its tree's HEAD: run ./make.bash -base " + r.Base
	}
	return ""
}

// ChangedBetween lists the files under paths (git pathspecs) that differ
// between the repository's commits a and b.
func (r Repo) ChangedBetween(a, b string, paths ...string) ([]string, error) {
	args := append([]string{"diff", "--name-only", a, b, "--"}, paths...)
	out, err := git(r.Root, nil, args...)
	if err != nil {
		return nil, err
	}
	return nonEmptyLines(out), nil
}

// nonEmptyLines returns the lines of git's output that are not blank,
// trimmed.
func nonEmptyLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// ErrNoCommit is the error SeriesAt wraps when the clone does not have the
// commit asked for.
var ErrNoCommit = errors.New("commit not in this clone's history (a shallow clone?)")

// ErrOtherBase is the error SeriesAt wraps when the commit holds no series
// of the base asked for.
var ErrOtherBase = errors.New("no series of this base at that commit")

// SeriesAt returns the base's patches/ as the repository's commit rev
// holds it: bases/<Base>/patches, or, at a commit from before the
// repository had bases, the top-level patches/ if the top-level UPSTREAM
// there pins the base's release. When the clone does not have rev, the
// error wraps ErrNoCommit. A patch that changes VERSION alone is left
// out: series from before Layout named the toolchain (NamedTag) did so in
// a patch, which no longer applies after the named commit.
func (r Repo) SeriesAt(rev string) (Series, error) {
	if _, err := revParse(r.Root, rev); err != nil {
		return nil, fmt.Errorf("%s: %w", rev, ErrNoCommit)
	}
	dir := BasesDir + "/" + r.Base + "/patches"
	if _, err := git(r.Root, nil, "rev-parse", "-q", "--verify", rev+":"+dir); err != nil {
		text, err := git(r.Root, nil, "show", rev+":UPSTREAM")
		if err != nil {
			return nil, fmt.Errorf("%s has no %s and no top-level UPSTREAM: it holds no series of base %s: %w", rev, dir, r.Base, ErrOtherBase)
		}
		u, err := ParseUpstream(rev+":UPSTREAM", []byte(text))
		if err != nil {
			return nil, err
		}
		if u.Version != r.Base {
			return nil, fmt.Errorf("%s holds a series of %s, not of base %s: %w", rev, u.Version, r.Base, ErrOtherBase)
		}
		dir = "patches"
	}
	out, err := git(r.Root, nil, "ls-tree", "--name-only", rev+":"+dir)
	if err != nil {
		return nil, err
	}
	s := Series{}
	for _, name := range nonEmptyLines(out) {
		if name == "README.md" {
			continue
		}
		if !patchName.MatchString(name) {
			return nil, fmt.Errorf("%s:%s/%s is not NNNN-area-short-description.patch", rev, dir, name)
		}
		text, err := git(r.Root, nil, "show", rev+":"+dir+"/"+name)
		if err != nil {
			return nil, err
		}
		if files := PatchFiles(text); len(files) == 1 && files[0] == "VERSION" {
			continue
		}
		s[name] = []byte(text)
	}
	if len(s) == 0 {
		return nil, fmt.Errorf("%s:%s holds no patches", rev, dir)
	}
	return s, nil
}

// PatchFiles returns the files a patch in git's format changes, from its
// "diff --git a/X b/X" lines.
func PatchFiles(patch string) []string {
	var files []string
	for _, line := range strings.Split(patch, "\n") {
		if rest, ok := strings.CutPrefix(line, "diff --git a/"); ok {
			if a, _, ok := strings.Cut(rest, " b/"); ok {
				files = append(files, a)
			}
		}
	}
	return files
}
