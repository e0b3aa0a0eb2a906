package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// fakeBundleBinary stands in for a test binary in the runner's tests: it
// prints what go test -bench would for the benchmark and GOMAXPROCS it is
// given, its latency histogram after PASS as bench/ prints it, appends
// "binary benchmark cpu" to $FAKE_LOG if set, fails for the
// benchmark named in $FAKE_FAIL, and sleeps $FAKE_SLEEP seconds before its
// result if set. The random comment at its end makes it
// big enough for a cut archive to lose it.
func fakeBundleBinary(t *testing.T) []byte {
	pad := make([]byte, 64<<10)
	rand.Read(pad)
	return []byte(`#!/bin/sh
for a; do
	case $a in
	-test.bench=*) b=${a#-test.bench=^}; b=${b%\$} ;;
	-test.cpu=*) c=${a#-test.cpu=} ;;
	esac
done
[ -n "${FAKE_LOG:-}" ] && echo "${0##*/} $b $c" >>"$FAKE_LOG"
echo "goos: linux"
echo "goarch: fake"
echo "pkg: go-spinbit.dev/bench"
[ "$b" = "${FAKE_FAIL:-}" ] && { echo "--- FAIL: $b"; exit 1; }
[ -n "${FAKE_SLEEP:-}" ] && sleep "$FAKE_SLEEP"
suffix=-$c
[ "$c" = 1 ] && suffix=
echo "$b$suffix 	     100	      $((1000 * c)) ns/op	         2.000 vcsw/op	         1.000 ivcsw/op	      $((900 * c)) cpu-ns/op	       0 B/op	       0 allocs/op"
echo PASS
echo "histogram $b$suffix 100 sub=5 max=$((40 * c)) counts=$((40 * c)):100"
exit 0
# ` + hex.EncodeToString(pad) + "\n")
}

var fakeBenchmarks = []string{"BenchmarkAlpha", "BenchmarkBeta"}

// fakeBundle writes an unpacked bundle for goarch with fake test binaries
// of two toolchains (or those named), and returns its folder.
func fakeBundle(t *testing.T, goarch string, toolchains ...string) string {
	t.Helper()
	if len(toolchains) == 0 {
		toolchains = []string{"upstream", "spinbit"}
	}
	s := BundleSuite{Name: "bench", Benchmarks: fakeBenchmarks}
	for _, tc := range toolchains {
		s.Toolchains = append(s.Toolchains, RecordToolchain{Name: tc, Version: fakeVersion(tc)})
	}
	return fakeBundleOf(t, goarch, s)
}

// fakeVersion is the go version of the toolchain named tc in a fake
// bundle: its release, or, for the fork's, the go1.27.4 series'.
func fakeVersion(tc string) string {
	for _, k := range Known {
		if k.Name == tc && !k.Fork() {
			return k.Release
		}
	}
	return "go1.27.4" + forkSuffix
}

// fakeBundleOf writes an unpacked bundle for goarch of the suites, with a
// fake test binary for each toolchain of each, and returns its folder.
func fakeBundleOf(t *testing.T, goarch string, suites ...BundleSuite) string {
	t.Helper()
	stage := filepath.Join(t.TempDir(), bundleName(goarch))
	info := BundleInfo{GOARCH: goarch, Provenance: Provenance{Commit: "abc123"}, Suites: suites}
	for _, s := range suites {
		for _, tc := range s.Toolchains {
			bin := filepath.Join(stage, filepath.FromSlash(bundleBinary(s.Name, tc.Name)))
			if err := os.MkdirAll(filepath.Dir(bin), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin, fakeBundleBinary(t), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := writeBundleFiles(stage, info); err != nil {
		t.Fatal(err)
	}
	return stage
}

// hostGOARCH is the GOARCH run.sh takes this machine for.
func hostGOARCH(t *testing.T) string {
	if runtime.GOOS != "linux" {
		t.Skip("run.sh runs on Linux only")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	return runtime.GOARCH
}

// runRunner runs the bundle's run.sh with args and returns its output.
func runRunner(t *testing.T, stage string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{filepath.Join(stage, bundleRunner)}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustRun(t *testing.T, stage string, env []string, args ...string) string {
	t.Helper()
	out, err := runRunner(t, stage, env, args...)
	if err != nil {
		t.Fatalf("run.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func wantError(t *testing.T, what string, out string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: succeeded, want an error\n%s", what, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s: output does not say %q:\n%s", what, w, out)
		}
	}
}

func TestRunnerRunsEverythingInterleaved(t *testing.T) {
	stage := fakeBundle(t, hostGOARCH(t))
	run := filepath.Join(t.TempDir(), "run")
	log := filepath.Join(t.TempDir(), "log")
	out := mustRun(t, stage, []string{"FAKE_LOG=" + log}, "-out", run, "-name", "box", "-count", "2", "-cpu", "1,2", "-benchtime", "1x")
	for _, want := range []string{"plan: 2 benchmarks x GOMAXPROCS 1,2 x count 2 = 16 runs", "[16/16]", "done: 16 runs", "./bench.bash -report " + run} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// Each slot runs both toolchains before the next slot starts, and
	// the first of them rotates from slot to slot and round to round.
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	want := []string{
		"bench-upstream.test BenchmarkAlpha 1", "bench-spinbit.test BenchmarkAlpha 1",
		"bench-spinbit.test BenchmarkAlpha 2", "bench-upstream.test BenchmarkAlpha 2",
		"bench-upstream.test BenchmarkBeta 1", "bench-spinbit.test BenchmarkBeta 1",
		"bench-spinbit.test BenchmarkBeta 2", "bench-upstream.test BenchmarkBeta 2",
		"bench-spinbit.test BenchmarkAlpha 1", "bench-upstream.test BenchmarkAlpha 1",
	}
	if len(lines) != 16 || !equalStrings(lines[:len(want)], want) {
		t.Errorf("test binaries ran in the order\n%s\nwant 16 runs starting\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	r, err := loadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if inc := r.Incomplete(); inc != "" || r.Finished.IsZero() {
		t.Errorf("complete run: Incomplete() = %q, finished %v", inc, r.Finished)
	}
	if r.Name() != "box" || r.Count != 2 || r.Machine["cpus"] == "" || r.Machine["cgroup-cpu-limit"] == "" {
		t.Errorf("run read back as name %q, count %d, machine %v", r.Name(), r.Count, r.Machine)
	}
	for _, tc := range []string{"upstream", "spinbit"} {
		rs, err := ParseOutput(bytes.NewReader(r.Suites[0].Raw[tc]))
		if err != nil || len(rs) != 8 {
			t.Errorf("%s: %d results (%v), want 8", tc, len(rs), err)
		}
	}
}

func TestRunnerResumesAndReportsPartialRun(t *testing.T) {
	stage := fakeBundle(t, hostGOARCH(t))
	run := filepath.Join(t.TempDir(), "run")
	args := []string{"-out", run, "-name", "box", "-count", "2", "-cpu", "1,2", "-benchtime", "1x"}
	mustRun(t, stage, nil, args...)
	// A run stopped part way: two runs of the second round never happened.
	for _, f := range []string{"upstream/r2.BenchmarkBeta.2.txt", "spinbit/r2.BenchmarkBeta.2.txt", "../../complete"} {
		if err := os.Remove(filepath.Join(run, "turns", "bench", f)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := loadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if inc := r.Incomplete(); !strings.Contains(inc, "14 of 16 runs") || !strings.Contains(inc, "run.sh -out "+run) {
		t.Errorf("Incomplete() = %q, want 14 of 16 and how to resume", inc)
	}
	out, err := runRunner(t, stage, nil, "-out", run, "-count", "3")
	wantError(t, "resume with another -count", out, err, "leave -count out")

	log := filepath.Join(t.TempDir(), "log")
	mustRun(t, stage, []string{"FAKE_LOG=" + log}, "-out", run)
	calls, _ := os.ReadFile(log)
	if got := strings.TrimSpace(string(calls)); got != "bench-upstream.test BenchmarkBeta 2\nbench-spinbit.test BenchmarkBeta 2" {
		t.Errorf("resumed run ran %q, want only the two missing runs", got)
	}
	if r, err = loadRun(run); err != nil || r.Incomplete() != "" {
		t.Errorf("after resuming: %v, Incomplete() = %q", err, r.Incomplete())
	}
}

func TestRunnerFailedRun(t *testing.T) {
	stage := fakeBundle(t, hostGOARCH(t))
	run := filepath.Join(t.TempDir(), "run")
	out, err := runRunner(t, stage, []string{"FAKE_FAIL=BenchmarkBeta"}, "-out", run, "-count", "1", "-cpu", "1", "-benchtime", "1x")
	wantError(t, "failing benchmark", out, err, "BenchmarkBeta at GOMAXPROCS 1 failed", "2 of 4 runs failed", "again to retry")
	r, err := loadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if inc := r.Incomplete(); !strings.Contains(inc, "2 failed") || !strings.Contains(inc, "r1.BenchmarkBeta.1.failed") {
		t.Errorf("Incomplete() = %q, want the failed runs named", inc)
	}
	mustRun(t, stage, nil, "-out", run)
}

func TestRunnerRefusesAnotherMachine(t *testing.T) {
	stage := fakeBundle(t, hostGOARCH(t))
	run := filepath.Join(t.TempDir(), "run")
	mustRun(t, stage, nil, "-out", run, "-count", "1", "-cpu", "1", "-benchtime", "1x")
	os.Remove(filepath.Join(run, "complete"))
	machine := filepath.Join(run, "machine.txt")
	data, _ := os.ReadFile(machine)
	foreign := regexpReplace(string(data), "(?m)^cpu: .*$", "cpu: Neoverse-N1 (another machine)")
	if err := os.WriteFile(machine, []byte(foreign), 0o666); err != nil {
		t.Fatal(err)
	}
	out, err := runRunner(t, stage, nil, "-out", run)
	wantError(t, "resume on another machine", out, err, "was started on another machine (cpu: Neoverse-N1 (another machine)", "resume it there")

	// A run of another machine reports as that machine...
	r, err := loadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Host(), "Neoverse-N1") {
		t.Errorf("Host() = %q, want the machine.txt's CPU", r.Host())
	}
	// ...but not with a description of another architecture than the bundle's.
	other := regexpReplace(foreign, "(?m)^goarch: .*$", "goarch: riscv64")
	os.WriteFile(machine, []byte(other), 0o666)
	_, err = loadRun(run)
	if err == nil || !strings.Contains(err.Error(), "describes a linux/riscv64 machine, but the bundle") {
		t.Errorf("machine.txt of another GOARCH: error %v", err)
	}
	os.WriteFile(machine, []byte(regexpReplace(foreign, "(?m)^cpus: .*\n", "")), 0o666)
	if _, err = loadRun(run); err == nil || !strings.Contains(err.Error(), `says nothing of "cpus"`) {
		t.Errorf("machine.txt without cpus: error %v", err)
	}
	os.Remove(machine)
	if _, err = loadRun(run); err == nil || !strings.Contains(err.Error(), "machine.txt: run.sh writes it") {
		t.Errorf("no machine.txt: error %v", err)
	}
}

func TestRunnerWrongArch(t *testing.T) {
	other := "arm64"
	if hostGOARCH(t) == "arm64" {
		other = "amd64"
	}
	stage := fakeBundle(t, other)
	out, err := runRunner(t, stage, nil, "-count", "1")
	wantError(t, "bundle of another GOARCH", out, err, "this bundle is for linux/"+other, "use spinbit-bench-"+runtime.GOARCH+".tar.gz instead")
}

func TestRunnerDamagedBundle(t *testing.T) {
	stage := fakeBundle(t, hostGOARCH(t))
	bin := filepath.Join(stage, filepath.FromSlash(bundleBinary("bench", "spinbit")))
	data, _ := os.ReadFile(bin)
	os.WriteFile(bin, data[:len(data)/2], 0o755)
	out, err := runRunner(t, stage, nil, "-count", "1")
	wantError(t, "truncated binary", out, err, "damaged bundle: bin/bench-spinbit.test", "download the archive again")
}

func TestTruncatedArchive(t *testing.T) {
	stage := fakeBundle(t, hostGOARCH(t))
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("no tar")
	}
	archive := filepath.Join(t.TempDir(), bundleName(runtime.GOARCH)+".tar.gz")
	if _, err := packBundle(stage, archive); err != nil {
		t.Fatal(err)
	}
	sum, _ := os.ReadFile(archive + ".sha256")
	if got, _ := fork.HashFile(archive); string(sum) != got+"  "+filepath.Base(archive)+"\n" {
		t.Errorf(".sha256 = %q, want the archive's sum %s", sum, got)
	}
	// Whole, it unpacks to a bundle that runs.
	whole := t.TempDir()
	if out, err := exec.Command("tar", "xzf", archive, "-C", whole).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	mustRun(t, filepath.Join(whole, bundleName(runtime.GOARCH)), nil, "-n")
	// Cut short, tar complains, and what it unpacked is refused by run.sh.
	data, _ := os.ReadFile(archive)
	os.WriteFile(archive, data[:len(data)*3/4], 0o666)
	cut := t.TempDir()
	if err := exec.Command("tar", "xzf", archive, "-C", cut).Run(); err == nil {
		t.Error("tar unpacked a truncated archive without complaint")
	}
	out, err := runRunner(t, filepath.Join(cut, bundleName(runtime.GOARCH)), nil, "-n")
	wantError(t, "bundle from a truncated archive", out, err, "damaged bundle", "sha256sum -c")
}

func TestLoadRunDamaged(t *testing.T) {
	if _, err := loadRun(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a run folder of a benchmark bundle") {
		t.Errorf("empty folder: error %v", err)
	}
	stage := fakeBundle(t, hostGOARCH(t))
	run := filepath.Join(t.TempDir(), "run")
	mustRun(t, stage, nil, "-out", run, "-count", "1", "-cpu", "1", "-benchtime", "1x")
	turn := filepath.Join(run, "turns", "bench", "spinbit", "r1.BenchmarkBeta.1.txt")
	data, _ := os.ReadFile(turn)
	os.WriteFile(turn, data[:len(data)-10], 0o666)
	_, err := loadRun(run)
	if err == nil || !strings.Contains(err.Error(), "r1.BenchmarkBeta.1.txt") || !strings.Contains(err.Error(), "copied incompletely") {
		t.Errorf("cut turn file: error %v", err)
	}
}

// TestReportRun reports a run of fake binaries: tables and plots of a
// normal run, naming the machine, and an incomplete run as far as it went.
func TestReportRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat")
	}
	stage := fakeBundle(t, hostGOARCH(t))
	run := filepath.Join(t.TempDir(), "run")
	mustRun(t, stage, nil, "-out", run, "-name", "bigbox", "-count", "2", "-cpu", "1,2", "-benchtime", "1x")
	os.Remove(filepath.Join(run, "turns", "bench", "spinbit", "r2.BenchmarkBeta.2.txt"))
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := ReportRun(context.Background(), root, run, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "incomplete run, reported as far as it went: 15 of 16 runs") {
		t.Errorf("report output does not say the run is incomplete:\n%s", log.String())
	}
	summary, err := os.ReadFile(filepath.Join(run, "bench", "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"measured on the machine bigbox", "**incomplete run**", "spinbit-vs-upstream.txt", "plots/Alpha.svg", "plots/Beta.svg", "[tails.md](tails.md)"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, summary)
		}
	}
	rec, err := ReadRecord(filepath.Join(run, "bench"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Machine != "bigbox" || rec.Mode != "short" || rec.Incomplete == "" {
		t.Errorf("run.json: machine %q, mode %q, incomplete %q", rec.Machine, rec.Mode, rec.Incomplete)
	}
	if err := Publish(t.TempDir(), filepath.Join(run, "bench"), io.Discard); err == nil {
		t.Error("Publish accepted a short, incomplete run")
	}
	if err := CheckRunReport(run); err == nil || !strings.Contains(err.Error(), "is not complete: 15 of 16 runs") {
		t.Errorf("CheckRunReport of an incomplete run: error %v", err)
	}
	mustRun(t, stage, nil, "-out", run)
	if err := ReportRun(context.Background(), root, run, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := CheckRunReport(run); err != nil {
		t.Errorf("CheckRunReport of the finished run: %v", err)
	}
}

func regexpReplace(s, re, with string) string {
	return regexp.MustCompile(re).ReplaceAllString(s, with)
}

func TestBundleFlags(t *testing.T) {
	o, err := ParseFlags([]string{"-bundle", "b"}, io.Discard)
	if err != nil || o.Bundle != "b" || !equalStrings(o.GOARCHes, BundleGOARCHes) {
		t.Errorf("-bundle b: %+v, %v", o, err)
	}
	if o, err = ParseFlags([]string{"-bundle", "b", "-goarch", "arm64"}, io.Discard); err != nil || !equalStrings(o.GOARCHes, []string{"arm64"}) {
		t.Errorf("-goarch arm64: %v, %v", o.GOARCHes, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-goarch", "arm64"}, "give -bundle DIR too"},
		{[]string{"-bundle", "b", "-goarch", "riscv64"}, `"riscv64" is not an architecture bundles are built for`},
		{[]string{"-bundle", "b", "-goarch", "amd64,amd64"}, "listed twice"},
		{[]string{"-bundle", "b", "-quick"}, "-quick would have no effect"},
		{[]string{"-report", "r", "-cpu", "1"}, "-cpu would have no effect"},
	} {
		if _, err := ParseFlags(c.args, io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one saying %q", c.args, err, c.want)
		}
	}
}

// TestPublishRun publishes a full run of a bundle into bench/report/<machine>/.
func TestPublishRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchstat")
	}
	var tcs []string
	for _, k := range Known {
		tcs = append(tcs, k.Name)
	}
	stage := fakeBundle(t, hostGOARCH(t), tcs...)
	run := filepath.Join(t.TempDir(), "run")
	mustRun(t, stage, nil, "-out", run, "-name", "bigbox", "-cpu", "1,2")
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := Publish(dst, run, io.Discard); err == nil || !strings.Contains(err.Error(), "run ./bench.bash -report "+run+" first") {
		t.Errorf("Publish before -report: error %v", err)
	}
	if err := ReportRun(context.Background(), root, run, io.Discard); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := Publish(dst, run, &log); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dst, "bench", "report", "go1.27.4", "bigbox", "README.md"))
	if err != nil {
		t.Fatalf("%v; Publish said:\n%s", err, log.String())
	}
	for _, want := range []string{"measured on the machine bigbox", "spinbit-vs-go1.27.txt", "./bench.bash -bundle"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("bench/report/bigbox/README.md lacks %q", want)
		}
	}
	if !isFile(filepath.Join(dst, "bench", "report", "go1.27.4", "bigbox", "plots", "Alpha.svg")) {
		t.Error("no plot published")
	}
}

// TestRunnerSuites runs a bundle of two suites, each with its own
// toolchains, and reads each back on its own.
func TestRunnerSuites(t *testing.T) {
	tc := func(names ...string) []RecordToolchain {
		var out []RecordToolchain
		for _, n := range names {
			out = append(out, RecordToolchain{Name: n})
		}
		return out
	}
	stage := fakeBundleOf(t, hostGOARCH(t),
		BundleSuite{Name: "bench", Benchmarks: fakeBenchmarks, Toolchains: tc("upstream", "spinbit", "go1.24")},
		BundleSuite{Name: "runtime", Benchmarks: []string{"BenchmarkRuntimeMutexGamma"}, Toolchains: tc("spinbit", "nospinbit")})
	run := filepath.Join(t.TempDir(), "run")
	log := filepath.Join(t.TempDir(), "log")
	out := mustRun(t, stage, []string{"FAKE_LOG=" + log}, "-out", run, "-count", "1", "-cpu", "1,2", "-benchtime", "1x")
	if !strings.Contains(out, "3 benchmarks x GOMAXPROCS 1,2 x count 1 = 16 runs") {
		t.Errorf("plan line wrong:\n%s", out)
	}
	calls, _ := os.ReadFile(log)
	if !strings.Contains(string(calls), "runtime-nospinbit.test BenchmarkRuntimeMutexGamma 2") || strings.Contains(string(calls), "runtime-upstream") {
		t.Errorf("runs:\n%s\nwant the runtime suite run by its own toolchains only", calls)
	}
	r, err := loadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Suites) != 2 || r.Suites[0].Total != 12 || r.Suites[1].Total != 4 || r.Suites[1].Done != 4 || r.Incomplete() != "" {
		t.Errorf("suites read back: %+v", r.Suites)
	}
	// Selecting only bench/'s benchmarks leaves the runtime suite empty.
	run2 := filepath.Join(t.TempDir(), "run")
	mustRun(t, stage, nil, "-out", run2, "-count", "1", "-cpu", "1", "-benchtime", "1x", "-bench", "Alpha")
	if r, err = loadRun(run2); err != nil || len(r.Suites[1].Selected) != 0 || r.Incomplete() != "" {
		t.Errorf("-bench Alpha: %v, runtime suite %+v", err, r.Suites[1])
	}
}

// TestRunnerInterrupted interrupts a run as Ctrl-C does, signalling the
// whole process group while a test binary runs, then resumes it; and
// refuses a second run.sh on a folder in use.
func TestRunnerInterrupted(t *testing.T) {
	stage := fakeBundle(t, hostGOARCH(t))
	run := filepath.Join(t.TempDir(), "run")
	log := filepath.Join(t.TempDir(), "log")
	cmd := exec.Command("sh", filepath.Join(stage, bundleRunner), "-out", run, "-count", "1", "-cpu", "1,2", "-benchtime", "1x")
	cmd.Env = append(os.Environ(), "FAKE_LOG="+log, "FAKE_SLEEP=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if data, _ := os.ReadFile(log); len(data) > 0 {
			break
		}
		if i > 200 {
			t.Fatal("no test binary started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// run.sh is inside; a second one must not measure into the same folder.
	second, err := runRunner(t, stage, nil, "-out", run)
	wantError(t, "second run.sh", second, err, "is measuring into "+run, "remove "+run+"/.lock")

	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	err = cmd.Wait()
	wantError(t, "interrupted run", out.String(), err, "interrupted after", "resume with: ")
	if tmp, _ := filepath.Glob(filepath.Join(run, "turns", "*", "*", "*.tmp")); len(tmp) > 0 || isFile(filepath.Join(run, ".lock", "pid")) {
		t.Errorf("interrupted run left %v, or its lock", tmp)
	}
	r, err := loadRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if r.Suites[0].Done == r.Suites[0].Total || len(r.Suites[0].Failed) > 0 {
		t.Errorf("after the interrupt: %d of %d done, failed %v; want some left and none failed", r.Suites[0].Done, r.Suites[0].Total, r.Suites[0].Failed)
	}
	mustRun(t, stage, nil, "-out", run)
	if r, err = loadRun(run); err != nil || r.Incomplete() != "" {
		t.Errorf("resumed: %v, %q", err, r.Incomplete())
	}
}
