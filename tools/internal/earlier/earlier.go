// Package earlier lays the runtime of an earlier patch series over a
// base's tree as the Replace entries of a go build -overlay file, so that
// today's tests can be built against it with the tree left as it is, and
// holds what such a run needs of the per-M count design.
package earlier

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PerMCount is the last go-spinbit commit whose patches bounded a wait with
// a per-M count of unlocks and a forced wakeup every 1<<18 of them, a
// design with no bound when an M's unlocks alternate between a busy mutex
// and an idle one; the next commit replaced it with the per-mutex claim.
const PerMCount = "c0597c4d271180c70dd0c3917dc91dd4c4afeb38"

// PerMCountShimFile and PerMCountShim export from PerMCount's runtime the
// names today's lock_bound_test.go needs and that design's test files do
// not: its spinning bit and sleepers mask, which it has but did not
// export; a zero claim bit, as it makes no claim; and, as it has no
// patience (its forced wakeup counted unlocks), today's unscaled 1ms,
// which is what today's MutexPatienceNow gives at TestRuntimeMutexClaim's
// GOMAXPROCS on 2 CPUs; and, as no M there waits for a claim, an M
// pointer of zero that no key word's top matches. MutexPatienceFor
// ignores its arguments, so only TestRuntimeMutexClaim is meant to run
// there. The build constraint is the
// one of that design's lock_spinbit.go.
const (
	PerMCountShimFile = "export_permcount_test.go"
	PerMCountShim     = `//go:build (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || plan9 || solaris || windows) && goexperiment.spinbitmutex

package runtime

const MutexClaimedBit = 0

const (
	MutexSpinningBit  = mutexSpinning
	MutexSleepersMask = mutexMMask
)

const (
	MutexPatience         = 1_000_000
	MutexPatienceMaxScale = 8
)

func MutexPatienceFor(procs, ncpu int32) int64 { return MutexPatience }
func MutexPatienceNow() int64                  { return MutexPatience }

func MutexThisM() uintptr                           { return 0 }
func MutexWaitsForClaim(l *Mutex, mp uintptr) bool { return false }
`
)

// Overlay returns the Replace entries under which the files of directory
// cur read as those of directory old: a file whose content differs reads
// as old's, a file only cur has is removed (""), and a file only old has
// is added. The files named in keep stay as cur has them. Only the regular
// files of the two directories themselves are compared, not their
// subdirectories or any other directory: the caller checks that the two
// trees differ nowhere else that matters (OutsideDir). The keys are paths
// in cur, the values paths in old.
func Overlay(cur, old string, keep []string) (map[string]string, error) {
	curFiles, err := files(cur)
	if err != nil {
		return nil, err
	}
	oldFiles, err := files(old)
	if err != nil {
		return nil, err
	}
	if len(oldFiles) == 0 {
		return nil, fmt.Errorf("%s holds no files: is it the earlier tree?", old)
	}
	replace := map[string]string{}
	for name := range curFiles {
		if slices.Contains(keep, name) {
			continue
		}
		if !oldFiles[name] {
			replace[filepath.Join(cur, name)] = ""
			continue
		}
		same, err := sameContent(filepath.Join(cur, name), filepath.Join(old, name))
		if err != nil {
			return nil, err
		}
		if !same {
			replace[filepath.Join(cur, name)] = filepath.Join(old, name)
		}
	}
	for name := range oldFiles {
		if !curFiles[name] && !slices.Contains(keep, name) {
			replace[filepath.Join(cur, name)] = filepath.Join(old, name)
		}
	}
	return replace, nil
}

// files returns the names of the regular files in dir.
func files(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			names[e.Name()] = true
		}
	}
	return names, nil
}

func sameContent(a, b string) (bool, error) {
	x, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(x, y), nil
}

// OutsideDir returns the paths among changed (slash-separated, relative to
// the tree's root, as git diff --name-only prints them) that name neither
// a file directly in dir nor one under a subdirectory of dir named in
// ignore.
func OutsideDir(changed []string, dir string, ignore []string) []string {
	var out []string
	for _, p := range changed {
		rest, ok := strings.CutPrefix(p, dir+"/")
		switch {
		case !ok:
			out = append(out, p)
		case !strings.Contains(rest, "/"):
		case slices.ContainsFunc(ignore, func(sub string) bool { return strings.HasPrefix(rest, sub+"/") }):
		default:
			out = append(out, p)
		}
	}
	return out
}
