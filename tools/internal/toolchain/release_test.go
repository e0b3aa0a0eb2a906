package toolchain

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParsePointRelease(t *testing.T) {
	for _, c := range []struct {
		s    string
		want [3]int
		ok   bool
	}{
		{"go1.27.4", [3]int{1, 27, 4}, true},
		{"go1.27", [3]int{1, 27, 0}, true},
		{"go1.27.0", [3]int{1, 27, 0}, true},
		{"go1.27rc1", [3]int{}, false},
		{"go1.27beta2", [3]int{}, false},
		{"go1.27.3-spinbit", [3]int{}, false},
		{"1.27.3", [3]int{}, false},
		{"go1", [3]int{}, false},
		{"extra-arg", [3]int{}, false},
	} {
		got, ok := ParsePointRelease(c.s)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("ParsePointRelease(%q) = %v, %v; want %v, %v", c.s, got, ok, c.want, c.ok)
		}
	}
}

// served is a listing of ModulePath as the proxy gives it: several
// platforms, pre-releases, other minors.
var served = []string{
	"v0.0.1-go1.26.11.linux-amd64",
	"v0.0.1-go1.27.0.linux-amd64",
	"v0.0.1-go1.27.3.linux-amd64",
	"v0.0.1-go1.27.3.darwin-arm64",
	"v0.0.1-go1.27.4.linux-arm64",
	"v0.0.1-go1.27.5.windows-amd64",
	"v0.0.1-go1.27.10rc1.linux-amd64",
	"v0.0.1-go1.28rc1.linux-amd64",
	"v0.0.1-go1.28.0.linux-amd64",
	"v0.0.1-go1.27.9-custom.linux-amd64",
	"v0.0.1-go1.21.linux-amd64",
	"v0.0.1-go1.21.1.linux-amd64",
	"go1.27.8",
}

func TestNewestPointRelease(t *testing.T) {
	for _, c := range []struct{ release, want string }{
		{"go1.27.3", "go1.27.5"},   // a newer one on another platform
		{"go1.27", "go1.27.5"},     // go1.27 is go1.27.0
		{"go1.27.5", "go1.27.5"},   // the newest: itself
		{"go1.27.7", "go1.27.7"},   // newer than any served
		{"go1.26.11", "go1.26.11"}, // go1.27 and go1.28 are other minors
		{"go1.21", "go1.21.1"},
		{"go1.29.0", "go1.29.0"}, // only rc and older minors
	} {
		got, err := NewestPointRelease(c.release, served)
		if err != nil || got != c.want {
			t.Errorf("NewestPointRelease(%q) = %q, %v; want %q", c.release, got, err, c.want)
		}
	}
	for _, bad := range []string{"go1.28rc1", "1.27.3", "go1.27.3-spinbit"} {
		if _, err := NewestPointRelease(bad, served); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("NewestPointRelease(%q) = %v, want an error naming it", bad, err)
		}
	}
}

// ServedReleases asks the go command, through whatever proxy GOPROXY
// names: here a directory, so the test needs no network. GOFLAGS from the
// caller must not get in the way.
func TestServedReleases(t *testing.T) {
	proxy := t.TempDir()
	dir := filepath.Join(proxy, ModulePath, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	want := []string{"v0.0.1-go1.98.1.linux-amd64", "v0.0.1-go1.98.2.darwin-arm64", "v0.0.1-go1.98rc1.linux-amd64"}
	for _, v := range want {
		// The go command reads the newest version's go.mod for
		// retractions.
		for ext, text := range map[string]string{".info": `{"Version":"` + v + `"}`, ".mod": "module " + ModulePath + "\n"} {
			if err := os.WriteFile(filepath.Join(dir, v+ext), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "list"), []byte(strings.Join(want, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-mod=vendor")
	got, err := ServedReleases(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("ServedReleases = %v, want %v", got, want)
	}
	if newest, err := NewestPointRelease("go1.98.1", got); err != nil || newest != "go1.98.2" {
		t.Errorf("NewestPointRelease(go1.98.1) = %q, %v; want go1.98.2", newest, err)
	}

	t.Setenv("GOPROXY", "off")
	if _, err := ServedReleases(context.Background()); err == nil || !strings.Contains(err.Error(), "GOPROXY=off") {
		t.Errorf("ServedReleases with GOPROXY=off: %v, want an error saying why", err)
	}
}

// A proxy that does not answer holds the go command up only until ctx is
// done.
func TestServedReleasesTimeout(t *testing.T) {
	hold := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(hold) })
	t.Setenv("GOPROXY", srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := ServedReleases(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ServedReleases from a proxy that does not answer: %v, want context.DeadlineExceeded", err)
	}
}
