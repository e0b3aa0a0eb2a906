package fork

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A Series is the ordered content of patches/: file name -> patch text.
type Series map[string][]byte

// Names returns the patch names in the order they apply.
func (s Series) Names() []string {
	var names []string
	for n := range s {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var patchName = regexp.MustCompile(`^[0-9]{4}-[A-Za-z0-9][A-Za-z0-9._-]*\.patch$`)

// ReadSeries reads every *.patch file in dir. Other files are an error, so a
// misnamed patch is never silently skipped.
func ReadSeries(dir string) (Series, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return Series{}, nil
		}
		return nil, err
	}
	s := Series{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".patch") {
			if e.Name() == "README.md" {
				continue
			}
			return nil, fmt.Errorf("%s: unexpected %s: patches/ holds only NNNN-area-description.patch files", dir, e.Name())
		}
		if !patchName.MatchString(e.Name()) {
			return nil, fmt.Errorf("%s: patch name %q is not NNNN-area-short-description.patch", dir, e.Name())
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		s[e.Name()] = b
	}
	return s, nil
}

// WriteSeries replaces the patches in dir with s.
func WriteSeries(dir string, s Series) error {
	old, err := filepath.Glob(filepath.Join(dir, "*.patch"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range old {
		if _, keep := s[filepath.Base(f)]; !keep {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, b := range s {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Equal reports whether two series hold the same patches.
func (s Series) Equal(t Series) bool {
	if len(s) != len(t) {
		return false
	}
	for n, b := range s {
		if !bytes.Equal(b, t[n]) {
			return false
		}
	}
	return true
}

// Diff describes how the series have differs from want, one line per patch.
func (s Series) Diff(want Series) []string {
	var lines []string
	for _, n := range s.Names() {
		if b, ok := want[n]; !ok {
			lines = append(lines, "only in the tree: "+n)
		} else if !bytes.Equal(b, s[n]) {
			lines = append(lines, "differs: "+n)
		}
	}
	for _, n := range want.Names() {
		if _, ok := s[n]; !ok {
			lines = append(lines, "only in patches/: "+n)
		}
	}
	return lines
}

// Extract renders the commits after NamedTag in the git tree at dir
// as a series. The format is stable: no commit hashes, one fixed date, no
// version trailer, so re-extracting unchanged commits gives identical files.
func Extract(dir string) (Series, error) {
	tmp, err := os.MkdirTemp("", "extract")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	_, err = git(dir, nil, "-c", "core.abbrev=12", "-c", "diff.noprefix=false", "-c", "format.signoff=false",
		"format-patch", "--quiet", "--zero-commit", "--no-signature", "--no-numbered", "--no-binary",
		"--no-renames", "--stat=72", "--filename-max-length=100", "-o", tmp, NamedTag+"..HEAD")
	if err != nil {
		return nil, err
	}
	s, err := ReadSeries(tmp)
	if err != nil {
		return nil, err
	}
	for n, b := range s {
		s[n] = normalize(b)
	}
	return s, nil
}

var dateLine = regexp.MustCompile(`(?m)^Date: .*$`)

// normalize gives a patch the fixed date, so that when and where a commit was
// made does not show in its patch.
func normalize(b []byte) []byte {
	head, body, _ := bytes.Cut(b, []byte("\n\n"))
	head = dateLine.ReplaceAll(head, []byte("Date: "+fixedDate))
	return append(append(head, "\n\n"...), body...)
}

// ApplyError reports a patch that does not apply.
type ApplyError struct {
	Patch  string
	Files  []string
	Detail string
}

func (e *ApplyError) Error() string {
	where := "the tree"
	if len(e.Files) > 0 {
		where = strings.Join(e.Files, ", ")
	}
	return fmt.Sprintf("patch %s does not apply to %s: fix or regenerate it (see CONTRIBUTING.md: working on a patch)\n%s", e.Patch, where, e.Detail)
}

var failedFile = regexp.MustCompile(`(?m)^error: (?:patch failed: ([^:\n]+):\d+|([^:\n]+): (?:does not exist in index|already exists in index|No such file or directory|patch does not apply))`)

// Apply commits each patch of s, in order, onto HEAD of the git tree at dir.
// On the first patch that does not apply, it leaves HEAD at the last good
// patch and returns an *ApplyError.
func Apply(dir string, s Series) error {
	for _, name := range s.Names() {
		f, err := os.CreateTemp("", "patch")
		if err != nil {
			return err
		}
		f.Write(s[name])
		f.Close()
		_, err = git(dir, fixedIdentity, "am", "--quiet", "--committer-date-is-author-date", "--keep-cr", f.Name())
		os.Remove(f.Name())
		if err != nil {
			git(dir, nil, "am", "--abort")
			e := &ApplyError{Patch: name, Detail: strings.TrimSpace(err.Error())}
			seen := map[string]bool{}
			for _, m := range failedFile.FindAllStringSubmatch(e.Detail, -1) {
				file := m[1] + m[2]
				if !seen[file] {
					seen[file] = true
					e.Files = append(e.Files, file)
				}
			}
			return e
		}
	}
	return nil
}
