package bench

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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
			return nil, fmt.Errorf("reading benchmarks: %v", err)
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
