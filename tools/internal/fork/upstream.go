package fork

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// Upstream is the pinned release recorded in a base's UPSTREAM file.
type Upstream struct {
	Version string            // a Go release, such as "go1.23.12"
	Sums    map[string]string // GOOS-GOARCH -> h1: checksum of the toolchain module
	Source  string            // the GOOS-GOARCH of the first h1 line: the module the source comes from
}

// ParseUpstream reads the UPSTREAM file format: '#' comments, a line
// "version goX.Y.Z" and any number of lines "h1 GOOS-GOARCH h1:...".
func ParseUpstream(name string, data []byte) (*Upstream, error) {
	u := &Upstream{Sums: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch {
		case f[0] == "version" && len(f) == 2 && strings.HasPrefix(f[1], "go1."):
			if u.Version != "" {
				return nil, fmt.Errorf("%s:%d: second version line", name, n)
			}
			u.Version = f[1]
		case f[0] == "h1" && len(f) == 3 && strings.Contains(f[1], "-") && strings.HasPrefix(f[2], "h1:"):
			if u.Source == "" {
				u.Source = f[1]
			}
			u.Sums[f[1]] = f[2]
		default:
			return nil, fmt.Errorf("%s:%d: cannot parse %q: want \"version go1.N.M\" or \"h1 GOOS-GOARCH h1:...\"", name, n, line)
		}
	}
	if u.Version == "" {
		return nil, fmt.Errorf("%s: no \"version go1.N.M\" line", name)
	}
	if u.Source == "" {
		return nil, fmt.Errorf("%s: no \"h1 GOOS-GOARCH h1:...\" line: the source tree comes from the toolchain module it pins", name)
	}
	return u, nil
}

// ReadUpstream reads the base's UPSTREAM file, bases/<Base>/UPSTREAM.
func (r Repo) ReadUpstream() (*Upstream, error) {
	if r.Base == "" {
		return nil, fmt.Errorf("no base given: name one of the folders of %s/", BasesDir)
	}
	data, err := os.ReadFile(r.upstreamFile())
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("%s/%s has no UPSTREAM file: every base's folder pins its release there (tools/patch.bash port writes one)", BasesDir, r.Base)
	}
	if err != nil {
		return nil, err
	}
	return ParseUpstream(BasesDir+"/"+r.Base+"/UPSTREAM", data)
}

// FormatUpstream is the text of an UPSTREAM file that pins version by the
// h1: checksum sum of its toolchain module for platform (GOOS-GOARCH).
func FormatUpstream(version, platform, sum string) []byte {
	return []byte(`# The upstream Go release that this base's patches/ applies to.
version ` + version + `

# The h1: checksum the Go checksum database records for that release's
# golang.org/toolchain module, one line per platform (GOOS-GOARCH). Every
# platform's module holds the same src/, so ./make.bash takes the source,
# on any host, from the module of the first line: it downloads it with
# go mod download (which checks it against the checksum database) and then
# insists on this value.
h1 ` + platform + ` ` + sum + `
`)
}

// Fetch downloads the toolchain module that UPSTREAM's first h1 line pins
// (with `go mod download`, checked against the checksum database) and
// returns its root, failing unless its checksum is the pinned one. Every
// platform's module of a release holds the same src/, and the build uses
// nothing else of it, so one pinned module serves every host.
func (u *Upstream) Fetch(ctx context.Context) (string, error) {
	m, err := toolchain.Download(ctx, toolchain.ModulePath, toolchain.ModuleVersion(u.Version, u.Source))
	if err != nil {
		return "", err
	}
	if err := u.Verify(u.Source, m.Sum); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "src", "runtime")); err != nil {
		return "", fmt.Errorf("%s: not a Go tree (no src/runtime): %v", m.Dir, err)
	}
	return m.Dir, nil
}

// file names the UPSTREAM file of u's base, for messages.
func (u *Upstream) file() string { return BasesDir + "/" + u.Version + "/UPSTREAM" }

// Verify checks the checksum got of the toolchain module for platform.
func (u *Upstream) Verify(platform, got string) error {
	want, ok := u.Sums[platform]
	if !ok {
		return fmt.Errorf("%s pins no checksum for %s %s; the checksum database gave %s: "+
			"if you trust it, add the line \"h1 %s %s\" to it", u.file(), u.Version, platform, got, platform, got)
	}
	if got != want {
		return fmt.Errorf("downloaded %s for %s has checksum %s, but %s pins %s: "+
			"the module cache or proxy served a different tree; clear it with 'go clean -modcache' and retry",
			u.Version, platform, got, u.file(), want)
	}
	return nil
}
