package bench

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// SourceBenchmarks lists the benchmark functions declared in the _test.go
// files of dir whose names match pattern, the way go test -bench matches
// top-level names (an unanchored regexp on the whole name, Benchmark
// prefix included). It reads the source, so it can be used before any
// toolchain has compiled anything; the test binaries' own -test.list is
// the authority later on.
func SourceBenchmarks(dir, pattern string) ([]string, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("-bench %q is not a valid regexp: %v", pattern, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s has no _test.go files: is -root the repository root?", dir)
	}
	fset := token.NewFileSet()
	var names []string
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			// The file may use syntax newer than the Go the tools run on
			// (a base's runtime tests may): read its declarations line
			// by line instead.
			more, err := scanBenchmarks(f, re)
			if err != nil {
				return nil, fmt.Errorf("reading benchmarks: %v", err)
			}
			names = append(names, more...)
			continue
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isBenchmarkName(fn.Name.Name) || !takesB(fn.Type) {
				continue
			}
			if re.MatchString(fn.Name.Name) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	sort.Strings(names)
	return names, nil
}

// benchmarkLine matches the first line of a top-level benchmark
// function's declaration, gofmt'ed: func BenchmarkX(b *testing.B) {.
var benchmarkLine = regexp.MustCompile(`^func (Benchmark[^\s(]*)\(\w+ \*\w+\.B\) \{`)

// scanBenchmarks lists the benchmark functions of the file name whose
// names match re, from its lines, for a file go/parser cannot read.
func scanBenchmarks(name string, re *regexp.Regexp) ([]string, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, line := range strings.Split(string(src), "\n") {
		if m := benchmarkLine.FindStringSubmatch(line); m != nil && isBenchmarkName(m[1]) && re.MatchString(m[1]) {
			names = append(names, m[1])
		}
	}
	return names, nil
}

// isBenchmarkName follows the testing package's rule: Benchmark, then
// nothing or something that does not start with a lower-case letter.
func isBenchmarkName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok {
		return false
	}
	return rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')
}

// takesB reports whether a function type is func(*testing.B), or rather
// func(*X.B) for any import name X: close enough for listing.
func takesB(ft *ast.FuncType) bool {
	if ft.Results != nil && len(ft.Results.List) > 0 || ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
		return false
	}
	star, ok := ft.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "B"
}
