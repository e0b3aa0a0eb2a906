package fork

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPort ports a series of three patches from a fake release to another:
// one whose context moved (merged three-way), one whose lines the new
// release changed (a conflict), and one that adds a file.
func TestPort(t *testing.T) {
	r := newRepo(t, "go1.1.0", true)
	fromRelease := map[string]string{
		"VERSION":  "go1.1.0\n",
		"src/a.go": "package a\n\nconst A = 1\n\nfunc f() {}\nfunc g() {}\nfunc h() {}\n",
		"src/b.go": "package a\n\nconst B = 1\n",
	}
	base := t.TempDir()
	writeFiles(t, base, fromRelease)
	if err := Layout(base, r.Goroot()); err != nil {
		t.Fatal(err)
	}
	commitFile(t, r.Goroot(), "src/a.go", "package a\n\nconst A = 2\n\nfunc f() {}\nfunc g() {}\nfunc h() {}\n", "a: raise A\n\nWhy A is 2.")
	commitFile(t, r.Goroot(), "src/b.go", "package a\n\nconst B = 2\n", "a: raise B")
	commitFile(t, r.Goroot(), "src/c.go", "package a\n\nconst C = 3\n", "a: add C")
	if _, err := r.ExtractTo(); err != nil {
		t.Fatal(err)
	}
	fromSeries, _ := ReadSeries(r.Patches())

	toRelease := map[string]string{
		"VERSION": "go1.2.0\n",
		// A line of the patch's context changed: the patch applies
		// only three-way, from the blobs of go1.1.0.
		"src/a.go": "package a\n\nconst A = 1\n\nfunc f() { _ = 0 }\nfunc g() {}\nfunc h() {}\n",
		"src/b.go": "package a\n\nconst B = 5\n",
	}
	fetched := ""
	fetch := func(ctx context.Context, release, platform string) (string, string, error) {
		fetched = release + " " + platform
		dir := t.TempDir()
		writeFiles(t, dir, toRelease)
		return dir, "h1:fake=", nil
	}
	var log bytes.Buffer
	logf := func(format string, args ...any) { log.WriteString(strings.TrimSpace(format) + "\n") }
	opts := PortOptions{Root: r.Root, From: "go1.1.0", To: "go1.2.0", Fetch: fetch, Logf: logf}
	rep, err := Port(context.Background(), opts)
	if err != nil {
		t.Fatalf("Port: %v\n%s", err, log.String())
	}
	if fetched != "go1.2.0 linux-amd64" {
		t.Errorf("fetched %q, want go1.2.0 for the platform of go1.1.0's first h1 line", fetched)
	}
	names := fromSeries.Names()
	if !slices.Equal(rep.Applied, []string{names[0], names[2]}) {
		t.Errorf("applied %v, want %v", rep.Applied, []string{names[0], names[2]})
	}
	if len(rep.Failed) != 1 || rep.Failed[0].Patch != names[1] || !slices.Equal(rep.Failed[0].Files, []string{"src/b.go"}) {
		t.Errorf("failed %+v, want %s in src/b.go", rep.Failed, names[1])
	}

	to := Repo{Root: r.Root, Base: "go1.2.0"}
	u, err := to.ReadUpstream()
	if err != nil || u.Version != "go1.2.0" || u.Sums["linux-amd64"] != "h1:fake=" {
		t.Errorf("bases/go1.2.0/UPSTREAM: %+v, %v", u, err)
	}
	written, err := ReadSeries(to.Patches())
	if err != nil || !slices.Equal(written.Names(), []string{"0001-a-raise-A.patch", "0002-a-add-C.patch"}) || !slices.Equal(rep.Written, written.Names()) {
		t.Fatalf("bases/go1.2.0/patches: %v, %v; report says %v", written.Names(), err, rep.Written)
	}
	// The ported patch keeps its author, date and message.
	for _, want := range []string{"Subject: [PATCH] a: raise A", "\nWhy A is 2.\n", "Date: " + fixedDate} {
		if !strings.Contains(string(written["0001-a-raise-A.patch"]), want) {
			t.Errorf("the ported patch lacks %q:\n%s", want, written["0001-a-raise-A.patch"])
		}
	}
	from := firstLine(string(fromSeries[names[0]][bytes.Index(fromSeries[names[0]], []byte("\nFrom: "))+1:]))
	if !strings.Contains(string(written["0001-a-raise-A.patch"]), from) {
		t.Errorf("the ported patch lost its author line %q", from)
	}
	if b, _ := os.ReadFile(filepath.Join(to.Goroot(), "src", "a.go")); string(b) != "package a\n\nconst A = 2\n\nfunc f() { _ = 0 }\nfunc g() {}\nfunc h() {}\n" {
		t.Errorf("goroot/go1.2.0/src/a.go = %q, want the new release's with A raised", b)
	}
	if st, err := to.Status(); err != nil || !st.InSync() {
		t.Errorf("goroot/go1.2.0 and its patches/ after the port: %v, %+v", err, st)
	}
	var out bytes.Buffer
	rep.Print(&out)
	for _, want := range []string{"2 of 3 patches applied", names[1] + ": src/b.go", "tools/patch.bash extract -base go1.2.0", "./make.bash -base go1.2.0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}

	// A base that exists is refused, and so is a name that is no release.
	if _, err := Port(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("porting to an existing base: %v", err)
	}
	opts.To = "1.3"
	if _, err := Port(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "not a Go release") {
		t.Errorf("porting to %q: %v", opts.To, err)
	}
}

// TestPortPointRelease ports a series to a point release that changed only
// VERSION and a file no patch touches, as most point releases do: every
// patch applies, and the new tree names itself after the new release
// without any patch of VERSION.
func TestPortPointRelease(t *testing.T) {
	r := newRepo(t, "go1.1.0", true)
	base := t.TempDir()
	writeFiles(t, base, map[string]string{
		"VERSION":      "go1.1.0\ntime 2026-01-01T00:00:00Z\n",
		"src/a.go":     "package a\n\nconst A = 1\n",
		"src/other.go": "package a\n\nconst Fixed = false\n",
	})
	if err := Layout(base, r.Goroot()); err != nil {
		t.Fatal(err)
	}
	commitFile(t, r.Goroot(), "src/a.go", "package a\n\nconst A = 2\n", "a: raise A")
	commitFile(t, r.Goroot(), "src/c.go", "package a\n\nconst C = 3\n", "a: add C")
	if _, err := r.ExtractTo(); err != nil {
		t.Fatal(err)
	}
	fromSeries, _ := ReadSeries(r.Patches())
	for name, p := range fromSeries {
		if strings.Contains(string(p), "VERSION") {
			t.Fatalf("%s touches VERSION; the name comes from the layout:\n%s", name, p)
		}
	}
	fetch := func(ctx context.Context, release, platform string) (string, string, error) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"VERSION":      "go1.1.1\ntime 2026-02-01T00:00:00Z\n",
			"src/a.go":     "package a\n\nconst A = 1\n",
			"src/other.go": "package a\n\nconst Fixed = true\n",
		})
		return dir, "h1:fake=", nil
	}
	logf := func(string, ...any) {}
	rep, err := Port(context.Background(), PortOptions{Root: r.Root, From: "go1.1.0", To: "go1.1.1", Fetch: fetch, Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed) != 0 || !slices.Equal(rep.Applied, fromSeries.Names()) {
		t.Errorf("applied %v, failed %+v; want every patch of %v applied", rep.Applied, rep.Failed, fromSeries.Names())
	}
	to := Repo{Root: r.Root, Base: "go1.1.1"}
	if b, err := os.ReadFile(filepath.Join(to.Goroot(), "VERSION")); err != nil || string(b) != "go1.1.1-spinbit\ntime 2026-02-01T00:00:00Z\n" {
		t.Errorf("goroot/go1.1.1/VERSION = %q, %v; want the new release named go1.1.1-spinbit", b, err)
	}
	written, err := ReadSeries(to.Patches())
	if err != nil || !written.Equal(fromSeries) {
		t.Errorf("bases/go1.1.1/patches differs from go1.1.0's (%v): %v", err, written.Diff(fromSeries))
	}
	if st, err := to.Status(); err != nil || !st.InSync() {
		t.Errorf("goroot/go1.1.1 and its patches/ after the port: %v, %+v", err, st)
	}
}
