package model

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The model ties each of its steps to the Go code with a comment such as
//
//	/* go lock2: `prev := atomic.Xchg8(key8(&l.key), mutexLocked)` */
//
// naming a Go function (a method as Type.name, such as
// mutexClaimBucket.lock) and quoting, in backquotes, the statements the step
// stands for. CheckQuotes verifies that the function still contains each
// quoted statement, so that a change to the Go code shows which steps of the
// model to look at again. Every atomic step carries such a comment, or one
// tagged "mutant" (a step only a mutant has) or "model" (a step of the
// checking machinery).
//
// The model quotes go1.23's names; on go1.24 and later the same statements
// name an M's link on a wait stack m.mWaitList.next (m.nextwaitm before)
// and the number of CPUs numCPUStartup (ncpu before). CheckQuotes reads
// the Go code with those renamings undone (releaseNames), so that one
// model quotes the series of every base.

// releaseNames maps a later release's names of what the model quotes to
// the names the model uses.
var releaseNames = strings.NewReplacer(
	".mWaitList.next", ".nextwaitm",
	"numCPUStartup", "ncpu",
)

var (
	comment   = regexp.MustCompile(`(?s)/\*(.*?)\*/`)
	goTag     = regexp.MustCompile(`(?:^|\s)go ([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?):\s`)
	fragment  = regexp.MustCompile("`([^`]+)`")
	stepTag   = regexp.MustCompile(`/\*\s*(go [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?:|mutant|model)`)
	spaceRuns = regexp.MustCompile(`\s+`)
)

// A quote is one Go statement that the model quotes.
type quote struct {
	line int    // in the model
	fn   string // the Go function it is from
	text string
}

// quotes returns the statements quoted in model's comments.
func quotes(model string) ([]quote, error) {
	var qs []quote
	for _, loc := range comment.FindAllStringSubmatchIndex(model, -1) {
		body := model[loc[2]:loc[3]]
		tag := goTag.FindStringSubmatchIndex(body)
		if tag == nil {
			continue
		}
		fn := body[tag[2]:tag[3]]
		line := 1 + strings.Count(model[:loc[2]+tag[0]], "\n")
		frags := fragment.FindAllStringSubmatch(body[tag[1]:], -1)
		if len(frags) == 0 {
			return nil, fmt.Errorf("model line %d: the comment names the Go function %s but quotes none of its statements in backquotes", line, fn)
		}
		for _, f := range frags {
			qs = append(qs, quote{line, fn, f[1]})
		}
	}
	return qs, nil
}

// untaggedSteps returns the model's lines that open an atomic step without
// a comment saying what it stands for.
func untaggedSteps(model string) []int {
	var lines []int
	for i, l := range strings.Split(model, "\n") {
		if strings.Contains(l, "atomic {") && !stepTag.MatchString(l) {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// funcBodies returns the source of each function declared in the Go file
// src, whitespace runs folded to one space, keyed by its name, or by
// Type.name for a method, so that a method named like a function (the
// claim bucket's lock, and the runtime's lock) is a quote target of its own.
func funcBodies(name string, src []byte, into map[string]string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start, end := fset.Position(fd.Pos()).Offset, fset.Position(fd.End()).Offset
		into[funcName(fd)] = fold(string(src[start:end]))
	}
	return nil
}

// funcName returns fd's name, as Type.name for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

func fold(s string) string { return strings.TrimSpace(spaceRuns.ReplaceAllString(s, " ")) }

// CheckQuotes returns an error listing every step of model that lacks a
// comment and every quoted statement that the named function in goFiles
// (file name to source) does not contain. The steps of a feature the Go
// files do not have (features.go) are not checked.
func CheckQuotes(model string, goFiles map[string][]byte) error {
	_, err := checkQuotes(model, goFiles)
	return err
}

// checkQuotes is CheckQuotes, and returns the features the Go files have.
func checkQuotes(model string, goFiles map[string][]byte) ([]string, error) {
	var problems []string
	for _, l := range untaggedSteps(model) {
		problems = append(problems, fmt.Sprintf("model line %d: the atomic step has no comment saying what it stands for (/* go FUNC: `statement` */, or /* mutant: ... */ or /* model: ... */)", l))
	}
	bodies := map[string]string{}
	for name, src := range goFiles {
		src = []byte(releaseNames.Replace(string(src)))
		if err := funcBodies(name, src, bodies); err != nil {
			return nil, fmt.Errorf("parsing %s: %v", name, err)
		}
	}
	on := treeFeatures(bodies)
	qs, err := quotes(activeModel(model, on))
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		problems = append(problems, "the model quotes no Go statement at all")
	}
	for _, q := range qs {
		body, ok := bodies[q.fn]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("model line %d: no function %s in the Go files", q.line, q.fn))
		case !strings.Contains(body, fold(q.text)):
			problems = append(problems, fmt.Sprintf("model line %d: %s no longer contains `%s`", q.line, q.fn, q.text))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("the model and the Go code disagree; update the model to match the Go code (and the checks' expectations in tools/internal/model/checks.go if its behaviour changed):\n\t%s", strings.Join(problems, "\n\t"))
	}
	return on, nil
}

// checkModelQuotes checks the quotes of the bound in opts.BoundDocs
// (checkBoundQuoteFiles) and the quotes of each model in
// opts.Dir, the mutex's and the M semaphore's, against the Go files, read
// once, and returns the features the Go code has.
func checkModelQuotes(opts Options) ([]string, error) {
	if err := checkBoundQuoteFiles(opts.BoundDocs, opts.GoFiles); err != nil {
		return nil, err
	}
	srcs, err := readGoFiles(opts.GoFiles)
	if err != nil {
		return nil, err
	}
	var on []string
	for _, name := range []string{MutexModel, SemaModel} {
		m, err := os.ReadFile(filepath.Join(opts.Dir, name))
		if err != nil {
			return nil, err
		}
		features, err := checkQuotes(string(m), srcs)
		if err != nil {
			return nil, fmt.Errorf("model/%s: %v", name, err)
		}
		if name == MutexModel {
			on = features
		}
	}
	return on, nil
}

// readGoFiles reads the Go files a model quotes, keyed by their paths.
func readGoFiles(goFiles []string) (map[string][]byte, error) {
	srcs := map[string][]byte{}
	for _, f := range goFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading the Go code the model quotes: %v (run ./make.bash first to lay out goroot/<release>)", err)
		}
		srcs[f] = b
	}
	return srcs, nil
}
