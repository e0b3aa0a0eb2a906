package bench

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuickCheck runs the real thing in quick mode with -check on two
// workloads, against the two released toolchains (downloaded through the
// module proxy on first use) and the fork too when it has been built. It
// takes tens of seconds, so -short skips it.
func TestQuickCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the benchmarks with several toolchains")
	}
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	tcs := "upstream,go1.24"
	if isFile(filepath.Join(root, "goroot", "bin", "go")) {
		tcs = "upstream,spinbit,go1.24"
	}
	out := filepath.Join(t.TempDir(), "out")
	o, err := ParseFlags([]string{"-quick", "-check", "-toolchains", tcs, "-bench", "Capture|ChanContended", "-out", out}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := Run(context.Background(), o, &log); err != nil {
		t.Fatalf("%v\noutput:\n%s", err, log.String())
	}
	t.Logf("toolchains %s:\n%s", tcs, log.String())
	if !strings.Contains(log.String(), "check passed") {
		t.Error("-check did not report success")
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"go1.24-vs-upstream.txt", "plots/Capture.svg", "plots/ChanContended.svg", "sec/op"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary.md does not mention %s", want)
		}
	}
	rec, err := ReadRecord(out)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Mode != "quick" || len(rec.Toolchains) != strings.Count(tcs, ",")+1 || len(rec.Plots) != 2 || rec.Provenance.Commit == "" {
		t.Errorf("run.json = %+v, want a quick run of %s with 2 plots and the repository's commit", rec, tcs)
	}
	// A quick run is never the repository's published result.
	if err := Publish(t.TempDir(), out, io.Discard); err == nil || !strings.Contains(err.Error(), "quick run") {
		t.Errorf("Publish of a quick run: error = %v, want a refusal", err)
	}
}
