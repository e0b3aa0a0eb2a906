package fork

import (
	"fmt"
	"runtime"
	"strings"
)

// A Platform is a GOOS/GOARCH pair. The zero Platform means the host.
type Platform struct{ GOOS, GOARCH string }

// Host is the platform the tools run on.
func Host() Platform { return Platform{runtime.GOOS, runtime.GOARCH} }

func (p Platform) String() string { return p.GOOS + "/" + p.GOARCH }

// Dash is the GOOS-GOARCH form that archive and module names use.
func (p Platform) Dash() string { return p.GOOS + "-" + p.GOARCH }

// ParsePlatform parses "GOOS/GOARCH".
func ParsePlatform(s string) (Platform, error) {
	goos, goarch, ok := strings.Cut(s, "/")
	if !ok || goos == "" || goarch == "" || strings.Contains(goarch, "/") {
		return Platform{}, fmt.Errorf("bad platform %q: want GOOS/GOARCH, such as linux/arm64", s)
	}
	return Platform{goos, goarch}, nil
}
