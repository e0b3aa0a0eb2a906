package fork

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// A Repo is a checkout of this repository: UPSTREAM, patches/, and the
// ignored goroot/ that the tools lay out and patch.
type Repo struct {
	Root string
}

func (r Repo) Goroot() string  { return filepath.Join(r.Root, "goroot") }
func (r Repo) Patches() string { return filepath.Join(r.Root, "patches") }

// appliedFile, inside goroot/.git, records the HEAD that the last apply left,
// so a later run can tell "patches/ changed" from "goroot/ has new work".
func (r Repo) appliedFile() string { return filepath.Join(r.Goroot(), ".git", "spinbit-applied") }

// Status compares goroot/ with patches/.
type Status struct {
	Dirty     []string // uncommitted changes in goroot/ (git status lines)
	Diff      []string // how the commits after upstream differ from patches/
	Untouched bool     // HEAD is where the last apply left it
}

// InSync reports whether goroot/ holds exactly patches/ and nothing else.
func (s *Status) InSync() bool { return len(s.Dirty) == 0 && len(s.Diff) == 0 }

// Problem explains an out-of-sync status and what to do about it.
func (s *Status) Problem() string {
	var b strings.Builder
	if len(s.Dirty) > 0 {
		fmt.Fprintf(&b, "goroot/ has uncommitted changes:\n")
		for _, l := range s.Dirty {
			fmt.Fprintf(&b, "\t%s\n", l)
		}
		fmt.Fprintf(&b, "commit them in goroot/ (one commit per patch) and run tools/patch.bash extract, or discard them with tools/patch.bash apply -discard\n")
	}
	if len(s.Diff) > 0 {
		fmt.Fprintf(&b, "the commits in goroot/ after tag upstream and patches/ differ:\n")
		for _, l := range s.Diff {
			fmt.Fprintf(&b, "\t%s\n", l)
		}
		if s.Untouched {
			fmt.Fprintf(&b, "patches/ changed since goroot/ was patched: run ./make.bash or tools/patch.bash apply\n")
		} else {
			fmt.Fprintf(&b, "to keep goroot/'s commits run tools/patch.bash extract; to replace them with patches/ run tools/patch.bash apply -discard\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Exists reports whether goroot/ has been laid out.
func (r Repo) Exists() (bool, error) {
	if _, err := os.Stat(r.Goroot()); os.IsNotExist(err) {
		return false, nil
	}
	if _, err := revParse(r.Goroot(), UpstreamTag); err != nil {
		return false, fmt.Errorf("goroot/ exists but is not a tree laid out by ./make.bash (no git tag %q): move it away and run ./make.bash again", UpstreamTag)
	}
	return true, nil
}

// Status reports how goroot/ stands against patches/.
func (r Repo) Status() (*Status, error) {
	st := &Status{}
	out, err := git(r.Goroot(), nil, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if l != "" {
			st.Dirty = append(st.Dirty, l)
		}
	}
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

// Prepare makes goroot/ hold the upstream base plus patches/: it lays the
// tree out if it is missing and re-applies the series when patches/ changed.
// It never discards work: if goroot/ has edits or commits that patches/
// lacks, it returns an error that says how to extract or discard them,
// unless discard is set.
func (r Repo) Prepare(ctx context.Context, discard bool, logf func(string, ...any)) error {
	exists, err := r.Exists()
	if err != nil {
		return err
	}
	if !exists {
		u, err := ReadUpstream(r.Root)
		if err != nil {
			return err
		}
		logf("obtaining the source of %s: go mod download %s@%s", u.Version, toolchain.ModulePath, toolchain.ModuleVersion(u.Version, u.Source))
		base, err := u.Fetch(ctx)
		if err != nil {
			return err
		}
		logf("laying out %s as goroot/ (tag %s)", base, UpstreamTag)
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
		logf("discarding goroot/ work that patches/ lacks")
	case len(st.Dirty) == 0 && st.Untouched:
		logf("patches/ changed: re-applying")
	default:
		return fmt.Errorf("refusing to touch goroot/: %s", st.Problem())
	}
	return r.reapply(logf)
}

// reapply resets goroot/ to the upstream tag and applies patches/.
func (r Repo) reapply(logf func(string, ...any)) error {
	s, err := ReadSeries(r.Patches())
	if err != nil {
		return err
	}
	os.Remove(r.appliedFile())
	for _, args := range [][]string{
		{"reset", "-q", "--hard", UpstreamTag},
		{"clean", "-q", "-fd"},
	} {
		if _, err := git(r.Goroot(), nil, args...); err != nil {
			return err
		}
	}
	logf("applying %d patches", len(s))
	if err := Apply(r.Goroot(), s); err != nil {
		return err
	}
	head, err := revParse(r.Goroot(), "HEAD")
	if err != nil {
		return err
	}
	return os.WriteFile(r.appliedFile(), []byte(head+"\n"), 0o644)
}

// ExtractTo rewrites patches/ from goroot/'s commits. Uncommitted edits are
// an error: they would be left out silently.
func (r Repo) ExtractTo() (Series, error) {
	st, err := r.Status()
	if err != nil {
		return nil, err
	}
	if len(st.Dirty) > 0 {
		return nil, fmt.Errorf("goroot/ has uncommitted changes; commit them first:\n\t%s", strings.Join(st.Dirty, "\n\t"))
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
