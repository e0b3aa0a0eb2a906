package fork

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// BasesDir holds one folder per base, named after its release: its UPSTREAM
// pin and its patches/.
const BasesDir = "bases"

// A Base is one folder of BasesDir.
type Base struct {
	Release    string // the folder's name, the release its UPSTREAM pins
	HasPatches bool   // whether it holds patches/ yet
}

// ListBases reads root's BasesDir: every folder with an UPSTREAM file, in
// the order of their releases, oldest first (go1.9 < go1.23.12 < go1.27.3).
// A folder whose UPSTREAM pins another release than its name, or a folder
// without UPSTREAM, is an error.
func ListBases(root string) ([]Base, error) {
	entries, err := os.ReadDir(filepath.Join(root, BasesDir))
	if err != nil {
		return nil, fmt.Errorf("reading the bases: %v", err)
	}
	var bases []Base
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		r := Repo{Root: root, Base: e.Name()}
		u, err := r.ReadUpstream()
		if err != nil {
			return nil, err
		}
		if u.Version != e.Name() {
			return nil, fmt.Errorf("%s pins %s: a base's folder is named after the release it pins; rename the folder or fix its version line", r.upstreamFile(), u.Version)
		}
		st, err := os.Stat(r.Patches())
		bases = append(bases, Base{Release: e.Name(), HasPatches: err == nil && st.IsDir()})
	}
	slices.SortFunc(bases, func(a, b Base) int { return CompareReleases(a.Release, b.Release) })
	if len(bases) == 0 {
		return nil, fmt.Errorf("%s holds no base (a folder with UPSTREAM and patches/)", filepath.Join(root, BasesDir))
	}
	return bases, nil
}

// Bases returns the releases of the bases the tools work on when none is
// named: those with patches/, oldest first. It calls skipped with each
// release left out for lacking patches/.
func Bases(root string, skipped func(release string)) ([]string, error) {
	all, err := ListBases(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, b := range all {
		if b.HasPatches {
			out = append(out, b.Release)
		} else if skipped != nil {
			skipped(b.Release)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no base in %s has patches/ yet", filepath.Join(root, BasesDir))
	}
	return out, nil
}

// Newest returns the newest of the bases that have patches/: the series
// users should run, and the default of the commands that take one base.
func Newest(root string) (string, error) {
	bases, err := Bases(root, nil)
	if err != nil {
		return "", err
	}
	return bases[len(bases)-1], nil
}

// CheckBase fails unless release is a base of root with patches/, naming
// the bases there are.
func CheckBase(root, release string) error {
	all, err := ListBases(root)
	if err != nil {
		return err
	}
	var names []string
	for _, b := range all {
		if b.Release == release {
			if !b.HasPatches {
				return fmt.Errorf("base %s has no patches/ yet (%s/%s/patches/): add its series there, or choose another base", release, BasesDir, release)
			}
			return nil
		}
		names = append(names, b.Release)
	}
	return fmt.Errorf("no base %s: %s holds %s", release, filepath.Join(root, BasesDir), strings.Join(names, ", "))
}

// CompareReleases orders Go release names ("go1.9", "go1.23.12",
// "go1.27.3", "go1.24rc1") by version, as cmp.Compare does: a pre-release
// before the release, a missing patch number as 0. A name it cannot parse
// sorts before every release, and such names among themselves by text.
func CompareReleases(a, b string) int {
	va, oka := releaseVersion(a)
	vb, okb := releaseVersion(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case !oka:
		return -1
	case !okb:
		return 1
	}
	return slices.Compare(va[:], vb[:])
}

func releaseVersion(r string) ([4]int, bool) {
	v, ok := strings.CutPrefix(r, "go")
	if !ok {
		return [4]int{}, false
	}
	return toolchain.ParseRelease(v)
}

// ErrNoRepo is the error FindRoot wraps when no directory holds BasesDir.
var ErrNoRepo = errors.New("not inside a go-spinbit checkout")

// FindRoot returns the repository root: the nearest directory at or above
// dir that holds BasesDir.
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, BasesDir)); err == nil && st.IsDir() {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no %s/ folder in %s or above: %w", BasesDir, dir, ErrNoRepo)
		}
	}
}
