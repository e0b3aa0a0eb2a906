package toolchain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// ParsePointRelease parses a Go release as the go command names it,
// "go1.27.3", or "go1.27" for go1.27.0, into its major, minor and patch
// numbers. A pre-release (go1.27rc1) or a version with a suffix
// (go1.27.3-spinbit) is not a release.
func ParsePointRelease(s string) (v [3]int, ok bool) {
	if !strings.HasPrefix(s, "go") || strings.ContainsAny(s, "- ") {
		return v, false
	}
	r, ok := ParseRelease(s[len("go"):])
	if !ok || r[3] != 0 {
		return v, false
	}
	return [3]int{r[0], r[1], r[2]}, true
}

// ServedReleases returns the versions of the module ModulePath that the
// module proxy lists (such as v0.0.1-go1.27.4.linux-amd64, one per
// platform), as `go list -m -versions` reports them. ctx bounds the go
// command's wait for the proxy.
func ServedReleases(ctx context.Context) ([]string, error) {
	cmd, err := moduleCommand(ctx, "list", "-m", "-versions", "-json", ModulePath)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("go list -m -versions %s: %w", ModulePath, ctx.Err())
		}
		return nil, fmt.Errorf("go list -m -versions %s: %s", ModulePath, firstNonEmpty(strings.TrimSpace(stderr.String()), err.Error()))
	}
	var m struct{ Versions []string }
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		return nil, fmt.Errorf("go list -m -versions -json %s: cannot parse its output: %v", ModulePath, err)
	}
	return m.Versions, nil
}

// NewestPointRelease returns the newest of release ("go1.27.4") and the
// releases of its minor (go1.27) that versions, those of ModulePath, hold
// for any platform. Pre-releases and versions of other minors are left
// out.
func NewestPointRelease(release string, versions []string) (string, error) {
	newest, ok := ParsePointRelease(release)
	if !ok {
		return "", fmt.Errorf("%q is not a Go release such as go1.27.4", release)
	}
	out := release
	for _, mv := range versions {
		// v0.0.1-go1.27.4.linux-amd64: the release is between the
		// prefix and the last dot, the platform after it.
		v, ok := strings.CutPrefix(mv, moduleVersionPrefix)
		i := strings.LastIndexByte(v, '.')
		if !ok || i < 0 {
			continue
		}
		v = v[:i]
		r, ok := ParsePointRelease(v)
		if ok && r[0] == newest[0] && r[1] == newest[1] && r[2] > newest[2] {
			newest, out = r, v
		}
	}
	return out, nil
}
