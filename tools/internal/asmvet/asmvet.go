// Package asmvet runs go vet, whose asmdecl check compares assembly with
// its Go declarations, on internal/runtime/atomic for every GOARCH whose
// Xchg8 is written in assembly, and shows that the check sees Xchg8: the
// same TEXT block, vetted in a throwaway package against a declaration
// whose parameter is misnamed, must fail.
package asmvet

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Package is the package whose assembly is vetted.
const Package = "internal/runtime/atomic"

// Func is the assembly function looked for, and Decl its Go declaration.
const (
	Func = "Xchg8"
	Decl = "func Xchg8(ptr *uint8, new uint8) uint8"
	// misnamed is Decl with the parameter the assembly reads as new+8(FP)
	// renamed: the types still match, but asmdecl must object.
	misnamed = "func Xchg8(ptr *uint8, val uint8) uint8"
)

// A Go runs the fork's go command with env added to its environment.
type Go struct {
	Path string
	Env  []string
}

func (g Go) output(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, g.Path, args...)
	cmd.Dir = dir
	cmd.Env = append(append(append([]string(nil), g.Env...), env...), "GOFLAGS=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("%s %s: %v\n%s", strings.Join(env, " "), "go "+strings.Join(args, " "), err, out.String())
	}
	return out.String(), nil
}

// An Asm is a GOARCH with Func in assembly, and the file that holds it.
type Asm struct {
	GOARCH string
	File   string
}

// Find returns, for each GOARCH that linux supports, the assembly file of
// Package that holds Func's TEXT block, if any, sorted by GOARCH.
func Find(ctx context.Context, g Go) ([]Asm, error) {
	list, err := g.output(ctx, "", nil, "tool", "dist", "list")
	if err != nil {
		return nil, err
	}
	var found []Asm
	for _, arch := range linuxArches(list) {
		out, err := g.output(ctx, "", []string{"GOOS=linux", "GOARCH=" + arch}, "list", "-f", "{{.Dir}}{{range .SFiles}} {{.}}{{end}}", Package)
		if err != nil {
			return nil, err
		}
		fields := strings.Fields(out)
		if len(fields) == 0 {
			return nil, fmt.Errorf("go list %s for GOARCH=%s printed nothing", Package, arch)
		}
		for _, s := range fields[1:] {
			file := filepath.Join(fields[0], s)
			b, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			if _, err := Extract(string(b)); err == nil {
				found = append(found, Asm{GOARCH: arch, File: file})
				break
			}
		}
	}
	return found, nil
}

// linuxArches returns the GOARCH of each linux/GOARCH line of list (the
// output of go tool dist list), sorted.
func linuxArches(list string) []string {
	var arches []string
	for _, line := range strings.Fields(list) {
		if arch, ok := strings.CutPrefix(line, "linux/"); ok {
			arches = append(arches, arch)
		}
	}
	sort.Strings(arches)
	return arches
}

// Extract returns Func's TEXT block in the assembly src: its TEXT line
// and the lines after it up to the first blank line or the next TEXT.
func Extract(src string) (string, error) {
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "TEXT ·"+Func+"(SB)") {
			continue
		}
		block := []string{line}
		for _, l := range lines[i+1:] {
			if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "TEXT ") {
				break
			}
			block = append(block, l)
		}
		return strings.Join(block, "\n") + "\n", nil
	}
	return "", fmt.Errorf("no TEXT ·%s(SB) line", Func)
}

// writeProbe lays out in dir a package holding block and the declaration
// decl.
func writeProbe(dir, block, decl string) error {
	files := map[string]string{
		"go.mod": "module asmprobe\n\ngo 1.22\n",
		"p.go":   "// Package p holds one function of " + Package + ", for go vet.\npackage p\n\n" + decl + "\n",
		"p.s":    "#include \"textflag.h\"\n\n" + block,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Vet vets Package for a.GOARCH, then vets a.File's TEXT block of Func in
// a throwaway package, once with Decl (which must pass, or the probe is
// no copy of the real thing) and once misnamed (which must fail, naming
// Func: otherwise vet does not look at this assembly). It says what it did
// on w.
func Vet(ctx context.Context, g Go, a Asm, w io.Writer) error {
	env := []string{"GOOS=linux", "GOARCH=" + a.GOARCH}
	if _, err := g.output(ctx, "", env, "vet", Package); err != nil {
		return err
	}
	fmt.Fprintf(w, "GOARCH=%s: go vet %s: ok\n", a.GOARCH, Package)
	src, err := os.ReadFile(a.File)
	if err != nil {
		return err
	}
	block, err := Extract(string(src))
	if err != nil {
		return fmt.Errorf("%s: %v", a.File, err)
	}
	dir, err := os.MkdirTemp("", "asmvet")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := writeProbe(dir, block, Decl); err != nil {
		return err
	}
	if _, err := g.output(ctx, dir, env, "vet", "."); err != nil {
		return fmt.Errorf("GOARCH=%s: %s's TEXT block of %s, alone with its declaration, does not pass go vet, so the misnamed check below would prove nothing: %v", a.GOARCH, filepath.Base(a.File), Func, err)
	}
	if err := writeProbe(dir, block, misnamed); err != nil {
		return err
	}
	out, err := g.output(ctx, dir, env, "vet", ".")
	if err == nil || !strings.Contains(out, Func) {
		return fmt.Errorf("GOARCH=%s: go vet passed %s's %s against %q: its asmdecl check does not see this assembly (output: %s)", a.GOARCH, filepath.Base(a.File), Func, misnamed, strings.TrimSpace(out))
	}
	fmt.Fprintf(w, "GOARCH=%s: go vet rejects %s against a misnamed declaration: %s\n", a.GOARCH, Func, firstLine(out, Func))
	return nil
}

func firstLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}
