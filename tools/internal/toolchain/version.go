package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Describe returns the GOROOT and Go version (as `go env GOVERSION` prints
// it) of the go command gocmd itself: GOTOOLCHAIN=local keeps it from
// switching to another toolchain.
func Describe(ctx context.Context, gocmd string) (root, version string, err error) {
	cmd := exec.CommandContext(ctx, gocmd, "env", "GOROOT", "GOVERSION")
	cmd.Env = append(EnvWithout(os.Environ(), "GOTOOLCHAIN", "GOROOT", "GOFLAGS"), "GOTOOLCHAIN=local")
	cmd.Dir = os.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", "", fmt.Errorf("%s env GOROOT GOVERSION: %v\n%s", gocmd, err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 || lines[0] == "" || lines[1] == "" {
		return "", "", fmt.Errorf("%s env GOROOT GOVERSION printed %q, want two lines", gocmd, stdout.String())
	}
	return lines[0], lines[1], nil
}

// AtLeast reports whether the Go version v, as `go env GOVERSION` prints
// it ("go1.26.8", "go1.21rc2", "go1.23.12-spinbit"), is min ("1.20.6") or
// later. A development build ("devel ...") counts as later than any
// release. A version it cannot parse is not at least anything.
func AtLeast(v, min string) bool {
	if strings.HasPrefix(v, "devel") {
		return true
	}
	have, ok := ParseRelease(strings.TrimPrefix(v, "go"))
	if !ok {
		return false
	}
	want, ok := ParseRelease(min)
	if !ok {
		panic("toolchain.AtLeast: bad minimum version " + min)
	}
	for i := range have {
		if have[i] != want[i] {
			return have[i] > want[i]
		}
	}
	return true
}

// ParseRelease parses a Go version without its "go" prefix: "1.N", "1.N.M"
// and "1.NrcK"/"1.NbetaK", with any suffix after '-' or ' ' ignored, into
// major, minor, patch and pre-release, ordered as the versions are: a
// pre-release has patch -1 and sorts by its kind (beta, then rc) and
// number; a release has pre-release 0.
func ParseRelease(v string) ([4]int, bool) {
	var out [4]int
	if i := strings.IndexAny(v, "- "); i >= 0 {
		v = v[:i]
	}
	for kind, pre := range []string{"beta", "rc"} {
		if i := strings.Index(v, pre); i > 0 {
			n, err := strconv.Atoi(v[i+len(pre):])
			if err != nil || n < 1 {
				return out, false
			}
			v = v[:i]
			out[2], out[3] = -1, (kind+1)*1000+n
			break
		}
	}
	f := strings.Split(v, ".")
	if len(f) < 2 || len(f) > 3 || (len(f) == 3 && out[2] == -1) {
		return out, false
	}
	for i, s := range f {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}
