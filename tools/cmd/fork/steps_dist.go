package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/distcheck"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/toolchain"
)

// distSteps check what ./make.bash -distpack -base <release> hands out,
// in dist/<release>/. Making it is a full toolchain build per platform, so
// they run only with -long; the later ones use what the first made.
var distSteps = []step{
	{name: "dist/distpack", long: true, limit: 3*time.Hour + 10*time.Minute, run: within(3*time.Hour, "make.bash -distpack", distpack)},
	{name: "dist/archives", long: true, limit: 10 * time.Minute, run: within(5*time.Minute, "reading the archives", distArchives)},
	{name: "dist/gotoolchain", long: true, limit: 25 * time.Minute, run: within(20*time.Minute, "the go command switching to the fork", distGotoolchain)},
	{name: "dist/linux-arm64-qemu", long: true, limit: 35 * time.Minute, run: within(30*time.Minute, "the linux/arm64 toolchain under qemu-aarch64", distARM64)},
}

// within bounds a step's run to d and names what hung when it is over.
func within(d time.Duration, what string, run func(context.Context, fork.Repo) error) func(context.Context, fork.Repo) error {
	return func(ctx context.Context, r fork.Repo) error {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		err := run(ctx, r)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("%s did not finish in %v: %v", what, d, err)
		}
		return err
	}
}

// distpack makes dist/<release>/ if it is not made from the base's tree, and checks
// that it holds exactly the expected files with the sums it records.
func distpack(ctx context.Context, r fork.Repo) error {
	if err := r.Distpack(ctx, false, false, logf); err != nil {
		return err
	}
	version, err := r.Version()
	if err != nil {
		return err
	}
	if err := fork.CheckDistFiles(r.DistDir(), fork.DistFiles(version, fork.Host())); err != nil {
		return err
	}
	return fork.CheckSums(r.DistDir())
}

// distReady returns the fork's version if dist/<release>/ is made from the
// base's tree, and otherwise says to run dist/distpack first.
func distReady(r fork.Repo) (string, error) {
	if !r.DistUpToDate() {
		return "", fmt.Errorf("dist/%s/ is missing or not made from goroot/%s: run ./test.bash -long -run %s/dist/distpack (or ./make.bash -distpack -base %s) first", r.Base, r.Base, r.Base, r.Base)
	}
	return r.Version()
}

// distArchives checks every binary archive in dist/<release>/: the tree, the
// runtime's spinbit source, and the go command's file header for the
// platform in the archive's name; and the source archive's tree.
func distArchives(ctx context.Context, r fork.Repo) error {
	version, err := distReady(r)
	if err != nil {
		return err
	}
	keep := func(name string) bool { return name == "go/VERSION" || strings.HasPrefix(name, "go/bin/go") }
	for _, p := range fork.DistPlatforms(fork.Host()) {
		name := fork.ArchiveName(version, p)
		a, err := distcheck.Read(filepath.Join(r.DistDir(), name), keep)
		if err != nil {
			return err
		}
		if err := distcheck.CheckBinaryTree(a, version, p.GOOS, p.GOARCH, "src/runtime/lock_spinbit.go"); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		fmt.Printf("%s: %d files, go/bin/%s is for %s\n", name, len(a.Names), distcheck.Exe(p.GOOS, "go"), p)
	}
	src := version + ".src.tar.gz"
	a, err := distcheck.Read(filepath.Join(r.DistDir(), src), nil)
	if err != nil {
		return err
	}
	for _, want := range []string{"go/VERSION", "go/src/make.bash", "go/src/runtime/lock_spinbit.go"} {
		if !a.Has(want) {
			return fmt.Errorf("%s has no %s", src, want)
		}
	}
	for _, n := range a.Names {
		if strings.HasPrefix(n, "go/bin/") || strings.HasPrefix(n, "go/pkg/") {
			return fmt.Errorf("%s holds build output: %s", src, n)
		}
	}
	fmt.Printf("%s: %d files, no build output\n", src, len(a.Names))
	return nil
}

// contended is a program that contends on runtime locks (one channel, many
// goroutines and Ps) and prints runtime.Version().
const contended = `package main

import (
	"fmt"
	"runtime"
	"sync"
)

func main() {
	runtime.GOMAXPROCS(8)
	ch := make(chan int, 1)
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20000; i++ {
				ch <- i
				<-ch
			}
		}()
	}
	wg.Wait()
	fmt.Println(runtime.Version())
}
`

// throwaway writes a module in a new temporary folder whose go.mod names
// toolchainLine (if not empty) and holds the contended program.
func throwaway(toolchainLine string) (string, error) {
	dir, err := os.MkdirTemp("", "spinbit-user-")
	if err != nil {
		return "", err
	}
	mod := "module example.com/contended\n\ngo 1.23\n"
	if toolchainLine != "" {
		mod += "\ntoolchain " + toolchainLine + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "main.go"), []byte(contended), 0o644)
}

// userEnv is the environment of someone using the fork from their own
// module: the caller's, less any choice of toolchain, with a module cache
// of its own so that the fork really comes from dist/<release>/, plus env.
func userEnv(modcache string, env ...string) []string {
	base := toolchain.EnvWithout(os.Environ(), "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOEXPERIMENT", "GOOS", "GOARCH",
		"GOPROXY", "GONOSUMDB", "GOSUMDB", "GOMODCACHE", "GOENV")
	return append(append(base, "GOMODCACHE="+modcache, "GOENV=off", "GOFLAGS="), env...)
}

// runIn runs name with args in dir with env and returns its combined
// output, trimmed.
func runIn(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// distGotoolchain does what the README's "Use it in your project" says:
// from a throwaway module naming the fork as its toolchain, the go command
// on PATH switches to it with GOTOOLCHAIN, first through dist/<release>/'s module
// proxy, then as the unpacked host archive on PATH under its name with the
// proxy off, and the program it builds reports the fork's version.
func distGotoolchain(ctx context.Context, r fork.Repo) error {
	version, err := distReady(r)
	if err != nil {
		return err
	}
	gocmd, err := toolchain.GoCommand()
	if err != nil {
		return err
	}
	mod, err := throwaway(version)
	if err != nil {
		return err
	}
	modcache := filepath.Join(mod, ".modcache")
	defer func() {
		// The module cache is read-only; its own command removes it,
		// told which one (never the user's).
		clean := exec.Command(gocmd, "clean", "-modcache")
		clean.Dir, clean.Env = os.TempDir(), userEnv(modcache, "GOTOOLCHAIN=local", "GOPROXY=off")
		clean.Run()
		os.RemoveAll(mod)
	}()
	env := userEnv(modcache, "GOPROXY=file://"+filepath.ToSlash(r.ProxyDir()), "GONOSUMDB=golang.org/toolchain", "GOTOOLCHAIN="+version)
	for _, args := range [][]string{{"version"}, {"run", "."}} {
		out, err := runIn(ctx, mod, env, gocmd, args...)
		if err != nil {
			return err
		}
		fmt.Printf("GOTOOLCHAIN=%s go %s: %s\n", version, strings.Join(args, " "), out)
		if !strings.Contains(out, version) {
			return fmt.Errorf("go %s printed %q: it did not switch to %s", strings.Join(args, " "), out, version)
		}
	}
	// Unpacked from the host's archive and on PATH under its name, the
	// fork is found without a proxy.
	sdk, bin := filepath.Join(mod, ".sdk"), filepath.Join(mod, ".bin")
	for _, d := range []string{sdk, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	archive := filepath.Join(r.DistDir(), fork.ArchiveName(version, fork.Host()))
	if _, err := runIn(ctx, mod, nil, "tar", "-C", sdk, "--strip-components=1", "-xzf", archive); err != nil {
		return err
	}
	if err := os.Symlink(toolchain.Bin(sdk), filepath.Join(bin, version)); err != nil {
		return err
	}
	env = userEnv(filepath.Join(mod, ".modcache2"), "GOPROXY=off", "GOTOOLCHAIN="+version,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := runIn(ctx, mod, env, gocmd, "run", ".")
	if err != nil {
		return err
	}
	fmt.Printf("GOTOOLCHAIN=%s with %s on PATH and GOPROXY=off, go run .: %s\n", version, version, out)
	if out != version {
		return fmt.Errorf("go run . printed %q, want %s", out, version)
	}
	return nil
}

// distARM64 unpacks the linux/arm64 archive and, under qemu-aarch64, runs
// its go version, builds the contended program with it (its compiler and
// linker run under the emulator too, through -toolexec, since without
// binfmt_misc an emulated program cannot start another), and runs that.
func distARM64(ctx context.Context, r fork.Repo) error {
	version, err := distReady(r)
	if err != nil {
		return err
	}
	qemu, err := findQemuARM64(ctx)
	if err != nil {
		return err
	}
	dir, err := throwaway("")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	archive := filepath.Join(r.DistDir(), fork.ArchiveName(version, fork.Platform{GOOS: "linux", GOARCH: "arm64"}))
	if _, err := runIn(ctx, dir, nil, "tar", "-xzf", archive); err != nil {
		return err
	}
	gocmd := filepath.Join(dir, "go", "bin", "go")
	env := append(userEnv(filepath.Join(dir, ".modcache"), "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0"),
		"GOROOT="+filepath.Join(dir, "go"), "GOCACHE="+filepath.Join(dir, ".cache"))
	out, err := runIn(ctx, dir, env, qemu, gocmd, "version")
	if err != nil {
		return err
	}
	fmt.Printf("qemu-aarch64 go version: %s\n", out)
	if want := "go version " + version + " linux/arm64"; out != want {
		return fmt.Errorf("go version printed %q, want %q", out, want)
	}
	if out, err = runIn(ctx, dir, env, qemu, gocmd, "build", "-toolexec="+qemu, "-o", "contended", "."); err != nil {
		return err
	}
	if out, err = runIn(ctx, dir, env, qemu, filepath.Join(dir, "contended")); err != nil {
		return err
	}
	fmt.Printf("qemu-aarch64 ./contended: %s\n", out)
	if out != version {
		return fmt.Errorf("the program built by the linux/arm64 toolchain printed %q, want %s", out, version)
	}
	return nil
}
