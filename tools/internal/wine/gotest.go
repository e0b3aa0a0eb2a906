//go:build unix

package wine

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"go-spinbit.dev/tools/internal/toolchain"
)

// BuildEnv is env for a go command that builds for windows/amd64: env
// less what could pick another toolchain, target or flags, plus the
// target, cgo off, and extra (such as GOEXPERIMENT=nospinbitmutex).
func BuildEnv(env []string, extra ...string) []string {
	out := toolchain.EnvWithout(env, "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOOS", "GOARCH", "GOAMD64", "CGO_ENABLED", "GOEXPERIMENT")
	out = append(out, "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOFLAGS=")
	return append(out, extra...)
}

// BuildRuntimeTests builds the runtime's test binary with gocmd in env
// (see BuildEnv) and with the build flags given as dir/runtime.test.exe,
// and returns its path.
func BuildRuntimeTests(ctx context.Context, gocmd, dir string, env, flags []string, out io.Writer) (string, error) {
	exe := filepath.Join(dir, "runtime.test.exe")
	return exe, goCommand(ctx, gocmd, dir, env, out, "test", flags, "-c", "-o", exe, "runtime")
}

// goCommand runs gocmd verb flags... args... in dir.
func goCommand(ctx context.Context, gocmd, dir string, env []string, out io.Writer, verb string, flags []string, args ...string) error {
	args = append(append([]string{verb}, flags...), args...)
	cmd := exec.CommandContext(ctx, gocmd, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("GOOS=windows GOARCH=amd64 %s %s: %v", gocmd, strings.Join(args, " "), err)
	}
	return nil
}

// RuntimeTestSources returns the directory of the runtime package and
// the sources of its lock_*_test.go files that a windows/amd64 build of
// its tests compiles (go list with env, see BuildEnv, and the build flags
// given), by file name.
func RuntimeTestSources(ctx context.Context, gocmd string, env, flags []string) (dir string, files map[string][]byte, err error) {
	args := append(append([]string{"list"}, flags...), "-f", "{{.Dir}}{{range .TestGoFiles}} {{.}}{{end}}{{range .XTestGoFiles}} {{.}}{{end}}", "runtime")
	cmd := exec.CommandContext(ctx, gocmd, args...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("GOOS=windows %s list runtime: %v\n%s", gocmd, err, stderr.String())
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 {
		return "", nil, fmt.Errorf("GOOS=windows %s list runtime printed nothing", gocmd)
	}
	dir, files = fields[0], map[string][]byte{}
	for _, name := range fields[1:] {
		if ok, _ := filepath.Match("lock_*_test.go", name); !ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", nil, err
		}
		files[name] = b
	}
	return dir, files, nil
}

// needsMore are the calls that make a test need what Wine does not give a
// test binary: a go command to build a program (buildTestProg and its
// kin), cgo, or, for TempDir, an os.RemoveAll that works: go1.27's (not
// go1.23's) removes a directory's subdirectories on Windows with a call
// that Wine 8 fails ("unlinkat C:\users\root\Temp\X\001: Invalid
// function."), so every test with a t.TempDir fails in its cleanup
// (TestRuntimeMutexStress did, with its work done; its in-process form
// runs).
var needsMore = map[string]bool{
	"TempDir":          true,
	"buildTestProg":    true,
	"runTestProg":      true,
	"runBuiltTestProg": true,
	"MustHaveGoBuild":  true,
	"MustHaveGoRun":    true,
	"MustHaveCGO":      true,
}

// leftOut are tests that can run under Wine but check what Wine does not
// give, with the reason.
var leftOut = map[string]string{
	// The mutex profile charges a sleeper's wait up to the unlock that
	// wakes it, as upstream's does; the test compares it with the whole
	// wait, which a native scheduler ends soon after. Under Wine a woken
	// thread takes so long to run that the profile showed 0.09 of the
	// waits.
	"TestRuntimeLockProfileCountsEveryWait": "it needs woken threads to run soon after their wakeup, which Wine's do not",
}

// MutexTests returns the names of the tests declared in files (Go
// sources by file name) that can run under Wine, sorted: every top-level
// func TestX(t *testing.T) whose body calls none of needsMore, but those
// in leftOut. A test that starts its own test binary again
// (os.Executable) stays: Wine runs it.
func MutexTests(files map[string][]byte) ([]string, error) {
	fset := token.NewFileSet()
	var names []string
	for name, src := range files {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !isTest(fn) {
				continue
			}
			if callsAny(fn.Body, needsMore) || leftOut[fn.Name.Name] != "" {
				continue
			}
			names = append(names, fn.Name.Name)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no test that can run under Wine in %d files", len(files))
	}
	sort.Strings(names)
	return names, nil
}

// isTest reports whether fn is declared as func TestX(t *testing.T).
func isTest(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	rest, ok := strings.CutPrefix(name, "Test")
	if r, _ := utf8.DecodeRuneInString(rest); !ok || unicode.IsLower(r) {
		return false
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// callsAny reports whether n calls a function or method whose name is in
// names.
func callsAny(n ast.Node, names map[string]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		switch f := call.Fun.(type) {
		case *ast.Ident:
			found = found || names[f.Name]
		case *ast.SelectorExpr:
			found = found || names[f.Sel.Name]
		}
		return !found
	})
	return found
}

// RunPattern is the -test.run pattern that selects exactly the tests
// named.
func RunPattern(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$"
}

// A TestResult is what -test.v output said of one top-level test.
type TestResult struct {
	Name, Result string // PASS, FAIL or SKIP
}

var (
	resultLine = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) `)
	runLine    = regexp.MustCompile(`^=== RUN   (\S+)$`)
)

// A TestOutput is what the -test.v output of a run said of its top-level
// tests.
type TestOutput struct {
	Results map[string]string // PASS, FAIL or SKIP by test
	// Unfinished is the last test that started without a result: the
	// one that was running when the output ended, or "".
	Unfinished string
}

// ParseTestOutput reads -test.v output.
func ParseTestOutput(out string) TestOutput {
	t := TestOutput{Results: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// Windows programs end their lines with \r\n.
		line := strings.TrimRight(sc.Text(), "\r")
		if m := resultLine.FindStringSubmatch(line); m != nil {
			t.Results[m[2]] = m[1]
			if m[2] == t.Unfinished {
				t.Unfinished = ""
			}
		} else if m := runLine.FindStringSubmatch(line); m != nil && !strings.Contains(m[1], "/") {
			t.Unfinished = m[1]
		}
	}
	return t
}

// Check returns the result of each of the tests named, in that order. It
// is an error if a test named has no result (it did not run, or the run
// ended first).
func (t TestOutput) Check(names []string) ([]TestResult, error) {
	var results []TestResult
	var missing []string
	for _, n := range names {
		r, ok := t.Results[n]
		if !ok {
			missing = append(missing, n)
			continue
		}
		results = append(results, TestResult{n, r})
	}
	if len(missing) > 0 {
		return results, fmt.Errorf("no result for %s", strings.Join(missing, ", "))
	}
	return results, nil
}
