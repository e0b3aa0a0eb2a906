package modes

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go-spinbit.dev/tools/internal/toolchain"
)

func TestWantLine(t *testing.T) {
	// 64 calls of 2500 steps: values 0..159999 once each; a timer at
	// steps 0, 16, ..., 2496 (157 per call); C at every 8th (313 per call).
	got := Want{Calls: 64, Steps: 2500, CGO: true}.Line()
	want := "contend: chan=160000 sum=12799920000 select=160000 mutex=160000 timers=10048 cgo=20032"
	if got != want {
		t.Errorf("Line() =\n%s\nwant\n%s", got, want)
	}
	if got := (Want{Calls: 1, Steps: 16}).Line(); got != "contend: chan=16 sum=120 select=16 mutex=16 timers=1" {
		t.Errorf("Line() = %s", got)
	}
}

func TestCheck(t *testing.T) {
	w := Want{Calls: 1, Steps: 16}
	if err := Check("noise\n  contend: chan=16 sum=120 select=16 mutex=16 timers=1\n", w); err != nil {
		t.Errorf("right line: %v", err)
	}
	for _, out := range []string{
		"contend: chan=16 sum=119 select=16 mutex=16 timers=1\n", // one value lost
		"contend: chan=16 sum=120 select=16 mutex=16 timers=1 cgo=2\n",
		"fatal error: runtime: mutex.key cannot point to this M\n",
		"",
	} {
		if err := Check(out, w); err == nil {
			t.Errorf("Check(%q) = nil, want an error", out)
		}
	}
}

func TestBuildCheck(t *testing.T) {
	for _, b := range Builds {
		if err := b.check(); err != nil {
			t.Errorf("Builds[%q]: %v", b.Name, err)
		}
	}
	bad := []Build{
		{Name: "lib-without-cc", Kind: CArchive, Modes: plain},
		{Name: "lib-with-options", Kind: CShared, CC: "gcc", Modes: []Mode{{Name: "x", Options: []string{"locked"}}}},
		{Name: "unknown-option", Kind: Program, Modes: []Mode{{Name: "x", Options: []string{"fast"}}}},
	}
	for _, b := range bad {
		if err := b.check(); err == nil {
			t.Errorf("build %s: check() = nil, want an error", b.Name)
		}
	}
}

// hostToolchain is the go command on PATH, as a Toolchain.
func hostToolchain(t *testing.T) Toolchain {
	t.Helper()
	gocmd, err := toolchain.GoCommand()
	if err != nil {
		t.Skip(err)
	}
	env := append(toolchain.EnvWithout(os.Environ(), "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOEXPERIMENT", "GOOS", "GOARCH"), "GOTOOLCHAIN=local")
	return Toolchain{Name: "host", Go: gocmd, Env: env}
}

// The contend program, built with the go command on PATH, prints what Want
// says in a few modes, and not what another size would print; a run that
// fails is an error.
func TestRunWithHostGo(t *testing.T) {
	tc := hostToolchain(t)
	b := Build{Name: "program", Kind: Program, Modes: []Mode{
		{Name: "default"},
		{Name: "locked", Options: []string{"locked"}},
		godebug("gcstoptheworld=1"),
	}}
	var log strings.Builder
	exe, err := b.make(context.Background(), tc, t.TempDir(), &log)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range b.Modes {
		out, err := runMode(context.Background(), exe, m, tc.Env)
		if err == nil {
			err = Check(out, b.want())
		}
		if err != nil {
			t.Errorf("mode %s: %v\n%s", m.Name, err, out)
		}
		other := b.want()
		other.Steps--
		if err := Check(out, other); err == nil {
			t.Errorf("mode %s: output also matches %d steps a call", m.Name, other.Steps)
		}
	}
	if out, err := runMode(context.Background(), exe, Mode{Name: "bad", Options: []string{"nonsense"}}, tc.Env); err == nil {
		t.Errorf("an unknown option: no error; output %s", out)
	}
}

func TestRunSuite(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc for cgo")
	}
	tc := hostToolchain(t)
	b := Builds["cgo"]
	b.Modes = b.Modes[:1]
	var out strings.Builder
	res, err := Run(context.Background(), Options{Build: b, Toolchains: []Toolchain{tc}, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Status != Pass {
		t.Errorf("results %+v\n%s", res, out.String())
	}
}

func TestRunLimited(t *testing.T) {
	start := time.Now()
	_, err := runLimited(context.Background(), 300*time.Millisecond, os.Environ(), "sleep", "60")
	if err == nil || !strings.Contains(err.Error(), "did not finish within 300ms") {
		t.Errorf("err = %v, want a time limit error", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// A mode that fails with the fork fails; one that fails the same way with
// the base release is a skip that says so. The "fork" here is the host's
// go command building a deliberately miscounting program.
func TestRunComparesWithUpstream(t *testing.T) {
	host := hostToolchain(t)
	broken := host
	broken.Name = "broken"
	broken.Env = append(append([]string(nil), host.Env...), "GOFLAGS=-tags=contendbroken")
	b := Build{Name: "program", Kind: Program, Modes: plain}
	for _, c := range []struct {
		upstream Toolchain
		want     Status
	}{
		{host, Fail},
		{broken, Skip},
	} {
		var out strings.Builder
		up := c.upstream
		res, err := Run(context.Background(), Options{
			Build:      b,
			Toolchains: []Toolchain{broken},
			Upstream:   func(context.Context) (Toolchain, error) { return up, nil },
			Out:        &out,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Status != c.want {
			t.Errorf("upstream %s: results %+v, want one %s\n%s", up.Name, res, c.want, out.String())
		}
		if c.want == Skip && !strings.Contains(res[0].Why, "on broken too") {
			t.Errorf("the skip does not say it fails upstream too: %s", res[0].Why)
		}
	}
}
