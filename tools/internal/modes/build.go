package modes

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// A Toolchain is a go command and the environment to run it in.
type Toolchain struct {
	Name string   // shown in the results, such as "spinbitmutex" or "go1.23.12"
	Go   string   // path of the go command
	Env  []string // its whole environment
}

// A Build is one way of building the contend code; each of its Modes is
// a way of running what it built.
type Build struct {
	Name string
	Kind Kind
	// Tags are build tags besides the one a library needs.
	Tags []string
	// Flags are go build flags, such as -race.
	Flags []string
	// CC, if set, is the C compiler: cgo is on and CC set for go build,
	// and the driver of a library is compiled with it. If empty, cgo is
	// off, which a library cannot be.
	CC string
	// Modes are the runs of what was built.
	Modes []Mode
}

// A Mode is one run of a build: the environment it adds and the options
// it passes to the contend program.
type Mode struct {
	Name string
	Env  []string
	// Options are "locked" and "profile" (see testdata/contend/main.go);
	// only a Program takes them.
	Options []string
}

// want is what a run of b must print.
func (b Build) want() Want {
	cgo := false
	for _, t := range b.Tags {
		cgo = cgo || t == "contendcgo"
	}
	if b.Kind == Program {
		return Want{Calls: workers * rounds, Steps: steps, CGO: cgo}
	}
	return Want{Calls: libThreads * libWaves * libCalls, Steps: steps, CGO: cgo}
}

// check says what is wrong with b, or nil.
func (b Build) check() error {
	if b.Kind != Program && b.CC == "" {
		return fmt.Errorf("build %s: a %v needs a C compiler (CC)", b.Name, b.Kind)
	}
	for _, m := range b.Modes {
		if b.Kind != Program && len(m.Options) > 0 {
			return fmt.Errorf("build %s, mode %s: options %q are for a program, not a %v", b.Name, m.Name, m.Options, b.Kind)
		}
		for _, o := range m.Options {
			if o != "locked" && o != "profile" {
				return fmt.Errorf("build %s, mode %s: unknown option %q (want locked or profile)", b.Name, m.Name, o)
			}
		}
	}
	return nil
}

// An Exe is what a build made: a command line without the mode's options.
type Exe struct {
	Path string
	Args []string
}

// writeSources lays the contend module out in dir: its Go files in
// dir/contend with a go.mod, and the library driver in dir.
func writeSources(dir string) error {
	return fs.WalkDir(sources, "testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := sources.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(path, "testdata/")))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
		if filepath.Base(dst) == "work.go" {
			// go 1.22: the loop variable semantics the code assumes.
			return os.WriteFile(filepath.Join(filepath.Dir(dst), "go.mod"), []byte("module contend\n\ngo 1.22\n"), 0o644)
		}
		return nil
	})
}

// make builds b with tc in dir (which it fills), logging the commands to
// log, and returns what to run.
func (b Build) make(ctx context.Context, tc Toolchain, dir string, log io.Writer) (Exe, error) {
	if err := b.check(); err != nil {
		return Exe{}, err
	}
	if err := writeSources(dir); err != nil {
		return Exe{}, err
	}
	src := filepath.Join(dir, "contend")
	env := append([]string(nil), tc.Env...)
	if b.CC == "" {
		env = append(env, "CGO_ENABLED=0")
	} else {
		env = append(env, "CGO_ENABLED=1", "CC="+b.CC)
	}
	tags := append([]string(nil), b.Tags...)
	args := append([]string{"build"}, b.Flags...)
	var out string
	switch b.Kind {
	case Program:
		out = filepath.Join(dir, "contend.exe")
	case CArchive:
		out = filepath.Join(dir, "libcontend.a")
		tags = append(tags, "contendlib")
		args = append(args, "-buildmode=c-archive")
	case CShared:
		out = filepath.Join(dir, "libcontend.so")
		tags = append(tags, "contendlib")
		args = append(args, "-buildmode=c-shared")
	default:
		return Exe{}, fmt.Errorf("build %s: unknown kind %v", b.Name, b.Kind)
	}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	args = append(args, "-o", out, ".")
	if err := run(ctx, log, src, env, tc.Go, args...); err != nil {
		return Exe{}, err
	}
	if b.Kind == Program {
		return Exe{Path: out, Args: []string{strconv.Itoa(workers), strconv.Itoa(rounds), strconv.Itoa(steps)}}, nil
	}
	driver := filepath.Join(dir, "driver")
	ccArgs := []string{"-pthread", "-I", dir, "-o", driver, filepath.Join(dir, "driver.c")}
	if b.Kind == CArchive {
		ccArgs = append(ccArgs, out)
	} else {
		ccArgs = append(ccArgs, "-L", dir, "-lcontend", "-Wl,-rpath,"+dir)
	}
	if err := run(ctx, log, dir, env, b.CC, ccArgs...); err != nil {
		return Exe{}, err
	}
	return Exe{Path: driver, Args: []string{strconv.Itoa(libThreads), strconv.Itoa(libWaves), strconv.Itoa(libCalls), strconv.Itoa(steps)}}, nil
}

// run runs a build command in dir, saying what it runs on log, and returns
// an error holding its output if it fails.
func run(ctx context.Context, log io.Writer, dir string, env []string, name string, args ...string) error {
	fmt.Fprintf(log, "\t%s %s\n", filepath.Base(name), strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, tail(string(out), 40))
	}
	return nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[%d lines before]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
