//go:build unix

// Package wine runs windows/amd64 Go programs under Wine (Debian's
// wine64), in a Wine prefix of its own that it keeps in the user's cache
// directory: the fork's runtime on Windows, checked on Linux.
//
// Wine 8, Debian 12's, has no bcryptprimitives.dll, which Go's runtime
// (since go1.22) loads from system32 at start-up for ProcessPrng: without
// it every Go program dies at once ("bcryptprimitives.dll not found").
// The prefix gets a stand-in, testdata/bcryptprimitives.c, built with
// mingw-w64's gcc.
package wine

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go-spinbit.dev/tools/internal/apt"
)

//go:embed testdata/bcryptprimitives.c
var sources embed.FS

// Where Debian's wine64 package puts Wine's loader and server (the
// wine package adds wrappers on PATH, which this package does not need),
// and mingw-w64's C compiler.
const (
	Loader = "/usr/lib/wine/wine64"
	Server = "/usr/lib/wine/wineserver64"
	CC     = "x86_64-w64-mingw32-gcc"
)

// Needs are the programs that Find looks for, with their Debian packages.
var Needs = []apt.Need{
	{Program: Loader, Package: "wine64"},
	{Program: Server, Package: "wine64"},
	{Program: CC, Package: "gcc-mingw-w64-x86-64"},
}

// Tools are the paths of Wine's loader and server and of the C compiler.
type Tools struct{ Loader, Server, CC string }

// Find returns the paths of Needs, installing their packages first with
// h if some are missing. If they stay missing, the error is an
// *apt.MissingError that says why.
func Find(ctx context.Context, h apt.Host, stdout, stderr io.Writer) (Tools, error) {
	p, err := h.Find(ctx, stdout, stderr, Needs...)
	if err != nil {
		return Tools{}, err
	}
	return Tools{Loader: p[0], Server: p[1], CC: p[2]}, nil
}

// DefaultDir is the Wine prefix's directory: go-spinbit/wine in the
// user's cache directory.
func DefaultDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the Wine prefix: %v (set XDG_CACHE_HOME or HOME)", err)
	}
	return filepath.Join(cache, "go-spinbit", "wine"), nil
}

// A Prefix is a Wine prefix (WINEPREFIX) ready to run Go programs, held
// by this process until Close.
type Prefix struct {
	Dir   string
	Tools Tools
	lock  *os.File
}

// readyFile is written into a prefix once wineboot has made it and the
// stand-in DLL is in place; a prefix without it is made again.
const readyFile = "go-spinbit-ready"

// dllName is the stand-in's name in system32.
const dllName = "bcryptprimitives.dll"

// Open locks the prefix at dir (waiting for another process that holds
// it) and makes it ready: if it is not (never made, or left half made),
// it removes it and creates it with wineboot (about 20 seconds). It then
// builds the stand-in DLL and puts it in the prefix's system32 if it
// differs from the one there. What it does goes to log.
func Open(ctx context.Context, dir string, t Tools, log io.Writer) (*Prefix, error) {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		lock.Close()
		return nil, fmt.Errorf("locking the Wine prefix %s: %v", dir, err)
	}
	p := &Prefix{Dir: dir, Tools: t, lock: lock}
	if err := p.prepare(ctx, false, log); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Reset removes the prefix and makes it again.
func (p *Prefix) Reset(ctx context.Context, log io.Writer) error {
	return p.prepare(ctx, true, log)
}

func (p *Prefix) prepare(ctx context.Context, fresh bool, log io.Writer) error {
	if fresh || !p.ready() {
		if err := p.create(ctx, log); err != nil {
			return err
		}
	}
	return p.installDLL(ctx, log)
}

// System32 is the prefix's C:\windows\system32, where 64-bit DLLs go.
func (p *Prefix) System32() string {
	return filepath.Join(p.Dir, "drive_c", "windows", "system32")
}

// ready reports whether the prefix was made to the end.
func (p *Prefix) ready() bool {
	for _, f := range []string{filepath.Join(p.Dir, readyFile), filepath.Join(p.System32(), "kernel32.dll")} {
		if _, err := os.Stat(f); err != nil {
			return false
		}
	}
	return true
}

// initLimit bounds wineboot's making of a prefix (about 20 seconds on 2
// cores).
const initLimit = 5 * time.Minute

func (p *Prefix) create(ctx context.Context, log io.Writer) error {
	fmt.Fprintf(log, "wine: making the Wine prefix %s (wineboot -i)\n", p.Dir)
	p.kill()
	if err := os.RemoveAll(p.Dir); err != nil {
		return err
	}
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return err
	}
	var out bytes.Buffer
	if err := p.Run(ctx, "", nil, initLimit, &out, "wineboot", "-i"); err != nil {
		return fmt.Errorf("making the Wine prefix %s with wineboot -i: %v\n%s", p.Dir, err, out.Bytes())
	}
	// wineboot returns before wineserver has written the registry out;
	// wait for the server to exit.
	if err := p.server(ctx, "-w"); err != nil {
		return fmt.Errorf("waiting for wineserver after wineboot: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.System32(), "kernel32.dll")); err != nil {
		return fmt.Errorf("wineboot -i made no system32 in the Wine prefix %s: %v\n%s", p.Dir, err, out.Bytes())
	}
	return os.WriteFile(filepath.Join(p.Dir, readyFile), []byte("made by go-spinbit's tools/internal/wine\n"), 0o644)
}

// installDLL builds the stand-in bcryptprimitives.dll and puts it in
// system32 unless the same is there.
func (p *Prefix) installDLL(ctx context.Context, log io.Writer) error {
	tmp, err := os.MkdirTemp("", "wine-dll")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src, err := sources.ReadFile("testdata/bcryptprimitives.c")
	if err != nil {
		return err
	}
	c := filepath.Join(tmp, "bcryptprimitives.c")
	if err := os.WriteFile(c, src, 0o644); err != nil {
		return err
	}
	dll := filepath.Join(tmp, dllName)
	cmd := exec.CommandContext(ctx, p.Tools.CC, dllArgs(c, dll)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the stand-in %s: %s %s: %v\n%s", dllName, p.Tools.CC, strings.Join(cmd.Args[1:], " "), err, out)
	}
	built, err := os.ReadFile(dll)
	if err != nil {
		return err
	}
	dst := filepath.Join(p.System32(), dllName)
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, built) {
		return nil
	}
	fmt.Fprintf(log, "wine: installing the stand-in %s (ProcessPrng) in %s\n", dllName, p.System32())
	return os.WriteFile(dst, built, 0o755)
}

// dllArgs are the C compiler's arguments that build the stand-in DLL,
// the same bytes each time (no time stamp, a fixed image base), so that
// an unchanged one is left in place.
func dllArgs(src, dll string) []string {
	return []string{"-shared", "-O2", "-s", "-Wl,--no-insert-timestamp,--disable-auto-image-base", "-o", dll, src, "-ladvapi32"}
}

// Env returns base less every setting of Wine's and of the display, plus
// the prefix's: no debug output, no Mono or Gecko installer, no menu
// entries, and the native bcryptprimitives.dll.
func (p *Prefix) Env(base []string) []string {
	var env []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "WINE") || name == "DISPLAY" || name == "WAYLAND_DISPLAY" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"WINEPREFIX="+p.Dir,
		"WINEARCH=win64",
		"WINELOADER="+p.Tools.Loader,
		"WINESERVER="+p.Tools.Server,
		"WINEDEBUG=-all",
		"WINEDLLOVERRIDES="+dllOverrides,
	)
}

// dllOverrides: the stand-in, native; no Mono (mscoree) or Gecko (mshtml)
// for wineboot to offer to install; no menu entries.
const dllOverrides = "bcryptprimitives=n;mscoree,mshtml=;winemenubuilder.exe="

// A HungError says that a program under Wine was not done within its
// time limit, and was killed.
type HungError struct{ Limit time.Duration }

func (e *HungError) Error() string {
	return fmt.Sprintf("hung: not done within %v under Wine (killed, and the rest of the prefix with wineserver -k)", e.Limit)
}

// Hung reports whether err is a *HungError.
func Hung(err error) bool {
	var h *HungError
	return errors.As(err, &h)
}

// waitDelay is how long Run waits for the output of a killed run's
// children to end.
const waitDelay = 10 * time.Second

// Run runs the Windows program exe with args under Wine in the prefix,
// in the directory dir (the current one if empty), with env added to the
// prefix's environment, its output going to out. If it is not done within
// limit, Run kills it and, with wineserver -k, every other process of the
// prefix (the Windows processes it started among them); the error is then
// a *HungError. The processes stay in the caller's process group, so that
// whatever stops the caller's group stops them too.
func (p *Prefix) Run(ctx context.Context, dir string, env []string, limit time.Duration, out io.Writer, exe string, args ...string) error {
	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := p.Command(dir, env, exe, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("wine %s: %v", exe, err)
	}
	stop := context.AfterFunc(runCtx, func() {
		cmd.Process.Kill()
		p.kill()
	})
	err := cmd.Wait()
	stop()
	if runCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		return &HungError{Limit: limit}
	}
	if err != nil {
		return fmt.Errorf("wine %s %s: %v", exe, strings.Join(args, " "), err)
	}
	return nil
}

// Command returns the command that runs exe with args under Wine in the
// prefix, in dir, with env added to the prefix's environment.
func (p *Prefix) Command(dir string, env []string, exe string, args ...string) *exec.Cmd {
	cmd := exec.Command(p.Tools.Loader, append([]string{exe}, args...)...)
	cmd.Dir = dir
	cmd.WaitDelay = waitDelay
	cmd.Env = append(p.Env(os.Environ()), env...)
	return cmd
}

// server runs wineserver with flag (-k: kill what runs in the prefix; -w:
// wait for the server to exit) in the prefix's environment.
func (p *Prefix) server(ctx context.Context, flag string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Tools.Server, flag)
	cmd.Env = p.Env(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("wineserver %s: %v\n%s", flag, err, out)
	}
	return nil
}

// kill ends every process of the prefix, and its wineserver. It fails
// when no server runs, which is fine.
func (p *Prefix) kill() {
	p.server(context.Background(), "-k")
}

// Close ends what still runs in the prefix and releases it.
func (p *Prefix) Close() error {
	p.kill()
	return p.lock.Close()
}
