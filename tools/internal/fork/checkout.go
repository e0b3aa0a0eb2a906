package fork

import (
	"errors"
	"fmt"
	"strings"
)

// Commit returns the repository's own HEAD (not goroot/'s), abbreviated
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

// BuildProblem says why goroot/ is not exactly the base plus patches/,
// built: what a program built with goroot/bin/go gets is goroot/src as it
// is, compiled by goroot/bin's compiler, whose intrinsics the patches
// change. It returns "" when both match patches/.
func (r Repo) BuildProblem() string {
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

// SeriesAt returns patches/ as the repository's commit rev holds it. When
// the clone does not have rev, the error wraps ErrNoCommit.
func (r Repo) SeriesAt(rev string) (Series, error) {
	if _, err := revParse(r.Root, rev); err != nil {
		return nil, fmt.Errorf("%s: %w", rev, ErrNoCommit)
	}
	out, err := git(r.Root, nil, "ls-tree", "--name-only", rev+":patches")
	if err != nil {
		return nil, err
	}
	s := Series{}
	for _, name := range nonEmptyLines(out) {
		if name == "README.md" {
			continue
		}
		if !patchName.MatchString(name) {
			return nil, fmt.Errorf("%s:patches/%s is not NNNN-area-short-description.patch", rev, name)
		}
		text, err := git(r.Root, nil, "show", rev+":patches/"+name)
		if err != nil {
			return nil, err
		}
		s[name] = []byte(text)
	}
	if len(s) == 0 {
		return nil, fmt.Errorf("%s:patches holds no patches", rev)
	}
	return s, nil
}
