package fork

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// PortOptions say what Port does.
type PortOptions struct {
	Root string // the repository root
	From string // the base whose series is ported
	To   string // the release of the new base, such as go1.28.1
	// Fetch obtains the release To's toolchain module for platform and
	// returns its tree and h1: checksum; FetchRelease outside tests.
	Fetch func(ctx context.Context, release, platform string) (dir, sum string, err error)
	Logf  func(string, ...any)
}

// FetchRelease downloads the golang.org/toolchain module of release for
// platform with go mod download, which checks it against the checksum
// database, and returns its tree and checksum.
func FetchRelease(ctx context.Context, release, platform string) (string, string, error) {
	m, err := toolchain.Download(ctx, toolchain.ModulePath, toolchain.ModuleVersion(release, platform))
	if err != nil {
		return "", "", err
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "src", "runtime")); err != nil {
		return "", "", fmt.Errorf("%s: not a Go tree (no src/runtime): %v", m.Dir, err)
	}
	return m.Dir, m.Sum, nil
}

// A PortReport says what became of each patch of the series ported.
type PortReport struct {
	From, To string
	Applied  []string      // the names of the patches that applied, in bases/<From>/patches/
	Failed   []PortFailure // those that did not
	Written  []string      // the names of the patches written to bases/<To>/patches/
}

// A PortFailure is a patch that did not apply to the new base.
type PortFailure struct {
	Patch string
	Files []string // the files that conflicted or were missing
	// Detail is git's message, for a patch that failed before any
	// merge (such as one whose preimage is not there at all).
	Detail string
}

// Port starts the base To from the series of the base From: it pins To in
// bases/<To>/UPSTREAM with the checksum of its toolchain module, lays the
// release out as goroot/<To> (Layout), applies From's patches there one at
// a time with git am -3 (which keeps each patch's author, date and
// message), aborting and recording each one that does not apply and going
// on with the next, and writes the commits that applied to
// bases/<To>/patches/. It refuses when bases/<To> or goroot/<To> exists.
func Port(ctx context.Context, o PortOptions) (*PortReport, error) {
	if _, ok := releaseVersion(o.To); !ok || !strings.HasPrefix(o.To, "go1.") {
		return nil, fmt.Errorf("-to %q is not a Go release: give one such as go1.28.1", o.To)
	}
	to := Repo{Root: o.Root, Base: o.To}
	if _, err := os.Stat(to.BaseDir()); err == nil {
		return nil, fmt.Errorf("%s already exists: port starts a new base; work on that one with tools/patch.bash apply -base %s", to.rel(to.BaseDir()), o.To)
	}
	if _, err := os.Stat(to.Goroot()); err == nil {
		return nil, fmt.Errorf("%s already exists, and no base pins it: move it away and port again", to.rel(to.Goroot()))
	}
	if err := CheckBase(o.Root, o.From); err != nil {
		return nil, err
	}
	from := Repo{Root: o.Root, Base: o.From}
	s, err := ReadSeries(from.Patches())
	if err != nil {
		return nil, err
	}
	u, err := from.ReadUpstream()
	if err != nil {
		return nil, err
	}
	// The patches' index lines name the blobs they were made on: with the
	// tree of From laid out and patched, git am -3 can merge each patch
	// from those blobs when its context moved.
	if err := from.Prepare(ctx, false, o.Logf); err != nil {
		return nil, fmt.Errorf("laying out %s, whose blobs the three-way merges start from: %v", from.rel(from.Goroot()), err)
	}
	o.Logf("obtaining the source of %s: go mod download %s@%s", o.To, toolchain.ModulePath, toolchain.ModuleVersion(o.To, u.Source))
	dir, sum, err := o.Fetch(ctx, o.To, u.Source)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(to.Goroot()), 0o755); err != nil {
		return nil, err
	}
	o.Logf("laying out %s as %s (tags %s and %s)", dir, to.rel(to.Goroot()), UpstreamTag, NamedTag)
	if err := Layout(dir, to.Goroot()); err != nil {
		return nil, err
	}
	head, err := revParse(from.Goroot(), "HEAD")
	if err != nil {
		return nil, err
	}
	const ref = "refs/spinbit-port/from"
	if _, err := git(to.Goroot(), nil, "fetch", "-q", "--no-tags", from.Goroot(), "+"+head+":"+ref); err != nil {
		return nil, err
	}
	rep := &PortReport{From: o.From, To: o.To}
	for _, name := range s.Names() {
		f, err := applyThreeWay(to.Goroot(), name, s[name])
		if err != nil {
			return nil, err
		}
		if f != nil {
			o.Logf("%s: does not apply (%s)", name, strings.Join(f.Files, ", "))
			rep.Failed = append(rep.Failed, *f)
			continue
		}
		o.Logf("%s: applied", name)
		rep.Applied = append(rep.Applied, name)
	}
	if _, err := git(to.Goroot(), nil, "update-ref", "-d", ref); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(to.BaseDir(), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(to.upstreamFile(), FormatUpstream(o.To, u.Source, sum), 0o644); err != nil {
		return nil, err
	}
	written, err := to.ExtractTo()
	if err != nil {
		return nil, err
	}
	rep.Written = written.Names()
	return rep, nil
}

// conflictLine is git's report of a file whose merge conflicted.
var conflictLine = regexp.MustCompile(`(?m)^CONFLICT \([^)]*\): .*? in (\S+)$`)

// applyThreeWay applies one patch to the tree at dir with git am -3. If it
// does not apply, it aborts it, leaving the tree as it was, and returns
// what failed; err is for the tree's git failing otherwise.
func applyThreeWay(dir, name string, patch []byte) (*PortFailure, error) {
	f, err := os.CreateTemp("", "port-*.patch")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(patch); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	_, amErr := git(dir, fixedIdentity, "am", "--quiet", "-3", "--committer-date-is-author-date", "--keep-cr", f.Name())
	if amErr == nil {
		return nil, nil
	}
	fail := &PortFailure{Patch: name, Detail: strings.TrimSpace(amErr.Error())}
	seen := map[string]bool{}
	add := func(file string) {
		if file != "" && !seen[file] {
			seen[file] = true
			fail.Files = append(fail.Files, file)
		}
	}
	unmerged, _ := git(dir, nil, "diff", "--name-only", "--diff-filter=U")
	for _, file := range nonEmptyLines(unmerged) {
		add(file)
	}
	for _, m := range conflictLine.FindAllStringSubmatch(fail.Detail, -1) {
		add(m[1])
	}
	for _, m := range failedFile.FindAllStringSubmatch(fail.Detail, -1) {
		add(m[1] + m[2])
	}
	if _, err := git(dir, nil, "am", "--abort"); err != nil {
		return nil, fmt.Errorf("aborting %s after it did not apply: %v", name, err)
	}
	if out, err := git(dir, nil, "status", "--porcelain", "--untracked-files=all"); err != nil || out != "" {
		return nil, fmt.Errorf("the tree is not clean after aborting %s (%v): %s", name, err, out)
	}
	return fail, nil
}

// Print writes the report: what applied, what did not and where, and what
// to do next.
func (r *PortReport) Print(w io.Writer) {
	fmt.Fprintf(w, "\nport of bases/%s/patches/ to %s: %d of %d patches applied\n", r.From, r.To, len(r.Applied), len(r.Applied)+len(r.Failed))
	if len(r.Applied) > 0 {
		fmt.Fprintf(w, "\napplied, now bases/%s/patches/ (numbered anew):\n", r.To)
		for i, name := range r.Applied {
			fmt.Fprintf(w, "\t%s", name)
			if i < len(r.Written) && r.Written[i] != name {
				fmt.Fprintf(w, "  ->  %s", r.Written[i])
			}
			fmt.Fprintln(w)
		}
	}
	if len(r.Failed) > 0 {
		fmt.Fprintf(w, "\ndid not apply (aborted, left out of bases/%s/patches/):\n", r.To)
		for _, f := range r.Failed {
			files := strings.Join(f.Files, ", ")
			if files == "" {
				files = "see: " + firstLine(f.Detail)
			}
			fmt.Fprintf(w, "\t%s: %s\n", f.Patch, files)
		}
	}
	fmt.Fprintf(w, "\nnext:\n")
	if len(r.Failed) > 0 {
		fmt.Fprintf(w, "\t# for each patch that did not apply, in order: port it by hand as a commit in goroot/%s\n", r.To)
		fmt.Fprintf(w, "\t# (git -C goroot/%s am -3 ../../bases/%s/patches/NAME stops at its conflicts), and move it to its\n", r.To, r.From)
		fmt.Fprintf(w, "\t# place in the series with git -C goroot/%s rebase -i %s; then\n", r.To, NamedTag)
		fmt.Fprintf(w, "\ttools/patch.bash extract -base %s\n", r.To)
	}
	fmt.Fprintf(w, "\t./make.bash -base %s && ./test.bash -base %s\n", r.To, r.To)
	fmt.Fprintf(w, "\tgit add bases/%s && git commit\n", r.To)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
