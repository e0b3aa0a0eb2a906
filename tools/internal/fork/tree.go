package fork

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// A Repo is a checkout of this repository seen through one of its bases:
// bases/<Base>/UPSTREAM and bases/<Base>/patches/, and the ignored
// goroot/<Base>/ that the tools lay out and patch. The methods that take
// no base (Commit, Uncommitted, ChangedBetween) work with Base unset.
type Repo struct {
	Root string
	Base string // a release with a folder in bases/, such as go1.23.12
}

// BaseDir is bases/<Base>.
func (r Repo) BaseDir() string { return filepath.Join(r.Root, BasesDir, r.Base) }

// Goroot is the base's tree, goroot/<Base>.
func (r Repo) Goroot() string { return filepath.Join(r.Root, "goroot", r.Base) }

// Patches is the base's series, bases/<Base>/patches.
func (r Repo) Patches() string { return filepath.Join(r.BaseDir(), "patches") }

func (r Repo) upstreamFile() string { return filepath.Join(r.BaseDir(), "UPSTREAM") }

// rel is path relative to the repository root, for messages.
func (r Repo) rel(path string) string {
	if rel, err := filepath.Rel(r.Root, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel) + "/"
	}
	return path
}

// appliedFile, inside goroot/<Base>/.git, records the HEAD that the last
// apply left, so a later run can tell "patches/ changed" from "the tree has
// new work".
func (r Repo) appliedFile() string { return filepath.Join(gitDir(r.Goroot()), "spinbit-applied") }

// gitDir returns the git directory of the work tree dir: dir/.git, or,
// when that is a file (a tree made with git worktree add), the directory
// its "gitdir:" line names.
func gitDir(dir string) string {
	dotGit := filepath.Join(dir, ".git")
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return dotGit // a directory, or missing: the callers report that
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return dotGit
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	return target
}

// Status compares a base's tree with its patches/.
type Status struct {
	Base      string   // the base's release
	Dirty     []string // uncommitted changes in the tree (git status lines)
	Diff      []string // how the commits after NamedTag differ from patches/
	Untouched bool     // HEAD is where the last apply left it
}

// InSync reports whether the tree holds exactly patches/ and nothing else.
func (s *Status) InSync() bool { return len(s.Dirty) == 0 && len(s.Diff) == 0 }

// Problem explains an out-of-sync status and what to do about it.
func (s *Status) Problem() string {
	var b strings.Builder
	tree, patches, flag := "goroot/"+s.Base+"/", BasesDir+"/"+s.Base+"/patches/", " -base "+s.Base
	if len(s.Dirty) > 0 {
		fmt.Fprintf(&b, "%s has uncommitted changes:\n", tree)
		for _, l := range s.Dirty {
			fmt.Fprintf(&b, "\t%s\n", l)
		}
		fmt.Fprintf(&b, "commit them in %s (one commit per patch) and run tools/patch.bash extract%s, or discard them with tools/patch.bash apply%s -discard\n", tree, flag, flag)
	}
	if len(s.Diff) > 0 {
		fmt.Fprintf(&b, "the commits in %s after tag %s and %s differ:\n", tree, NamedTag, patches)
		for _, l := range s.Diff {
			fmt.Fprintf(&b, "\t%s\n", l)
		}
		if s.Untouched {
			fmt.Fprintf(&b, "%s changed since %s was patched: run ./make.bash%s or tools/patch.bash apply%s\n", patches, tree, flag, flag)
		} else {
			fmt.Fprintf(&b, "to keep %s's commits run tools/patch.bash extract%s; to replace them with %s run tools/patch.bash apply%s -discard\n", tree, flag, patches, flag)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Exists reports whether the base's tree has been laid out.
func (r Repo) Exists() (bool, error) {
	if _, err := os.Stat(r.Goroot()); os.IsNotExist(err) {
		return false, nil
	}
	if _, err := revParse(r.Goroot(), UpstreamTag); err != nil {
		return false, fmt.Errorf("%s exists but is not a tree laid out by ./make.bash (no git tag %q): move it away and run ./make.bash -base %s again", r.rel(r.Goroot()), UpstreamTag, r.Base)
	}
	if _, err := revParse(r.Goroot(), NamedTag); err != nil {
		return false, fmt.Errorf("%s was laid out by older tools, which named the toolchain in a patch (no git tag %q): extract any work you want to keep, then remove %s and run ./make.bash -base %s again", r.rel(r.Goroot()), NamedTag, r.rel(r.Goroot()), r.Base)
	}
	return true, nil
}

// dirty lists the tree's uncommitted changes, untracked files included,
// as git status --porcelain prints them.
func (r Repo) dirty() ([]string, error) {
	out, err := git(r.Goroot(), nil, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}

// Status reports how the base's tree stands against its patches/.
func (r Repo) Status() (*Status, error) {
	st := &Status{Base: r.Base}
	dirty, err := r.dirty()
	if err != nil {
		return nil, err
	}
	st.Dirty = dirty
	have, err := Extract(r.Goroot())
	if err != nil {
		return nil, err
	}
	want, err := ReadSeries(r.Patches())
	if err != nil {
		return nil, err
	}
	st.Diff = have.Diff(want)
	head, err := revParse(r.Goroot(), "HEAD")
	if err != nil {
		return nil, err
	}
	applied, _ := os.ReadFile(r.appliedFile())
	st.Untouched = strings.TrimSpace(string(applied)) == head
	return st, nil
}

// Prepare makes goroot/<Base> hold the upstream release plus the base's
// patches/: it lays the tree out if it is missing and re-applies the series
// when patches/ changed. A base without patches/ is an error. It never
// discards work: if the tree has edits or commits that patches/
// lacks, it returns an error that says how to extract or discard them,
// unless discard is set.
func (r Repo) Prepare(ctx context.Context, discard bool, logf func(string, ...any)) error {
	if err := CheckBase(r.Root, r.Base); err != nil {
		return err
	}
	exists, err := r.Exists()
	if err != nil {
		return err
	}
	if !exists {
		u, err := r.ReadUpstream()
		if err != nil {
			return err
		}
		logf("obtaining the source of %s: go mod download %s@%s", u.Version, toolchain.ModulePath, toolchain.ModuleVersion(u.Version, u.Source))
		base, err := u.Fetch(ctx)
		if err != nil {
			return err
		}
		logf("laying out %s as %s (tags %s and %s)", base, r.rel(r.Goroot()), UpstreamTag, NamedTag)
		if err := os.MkdirAll(filepath.Dir(r.Goroot()), 0o755); err != nil {
			return err
		}
		if err := Layout(base, r.Goroot()); err != nil {
			return err
		}
		return r.reapply(logf)
	}
	st, err := r.Status()
	if err != nil {
		return err
	}
	switch {
	case st.InSync():
		return nil
	case discard:
		logf("discarding %s work that %s lacks", r.rel(r.Goroot()), r.rel(r.Patches()))
	case len(st.Dirty) == 0 && st.Untouched:
		logf("%s changed: re-applying", r.rel(r.Patches()))
	default:
		return fmt.Errorf("refusing to touch %s: %s", r.rel(r.Goroot()), st.Problem())
	}
	return r.reapply(logf)
}

// reapply resets the tree to NamedTag and applies patches/.
func (r Repo) reapply(logf func(string, ...any)) error {
	s, err := ReadSeries(r.Patches())
	if err != nil {
		return err
	}
	os.Remove(r.appliedFile())
	for _, args := range [][]string{
		{"reset", "-q", "--hard", NamedTag},
		{"clean", "-q", "-fd"},
	} {
		if _, err := git(r.Goroot(), nil, args...); err != nil {
			return err
		}
	}
	logf("applying %d patches to %s", len(s), r.rel(r.Goroot()))
	if err := Apply(r.Goroot(), s); err != nil {
		return err
	}
	head, err := revParse(r.Goroot(), "HEAD")
	if err != nil {
		return err
	}
	return os.WriteFile(r.appliedFile(), []byte(head+"\n"), 0o644)
}

// ExtractTo rewrites the base's patches/ from its tree's commits. Uncommitted edits are
// an error: they would be left out silently.
func (r Repo) ExtractTo() (Series, error) {
	st, err := r.Status()
	if err != nil {
		return nil, err
	}
	if len(st.Dirty) > 0 {
		return nil, fmt.Errorf("%s has uncommitted changes; commit them first:\n\t%s", r.rel(r.Goroot()), strings.Join(st.Dirty, "\n\t"))
	}
	s, err := Extract(r.Goroot())
	if err != nil {
		return nil, err
	}
	if err := WriteSeries(r.Patches(), s); err != nil {
		return nil, err
	}
	head, err := revParse(r.Goroot(), "HEAD")
	if err != nil {
		return nil, err
	}
	return s, os.WriteFile(r.appliedFile(), []byte(head+"\n"), 0o644)
}
