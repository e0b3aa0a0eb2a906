// Package distcheck inspects the archives that ./make.bash -distpack
// writes: which files a binary archive holds, and whether its executables
// are built for the platform its name promises.
package distcheck

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// An Archive is the list of files in a .tar.gz or .zip, with the contents
// of those that Read selected.
type Archive struct {
	Names    []string          // every regular file, sorted
	Contents map[string][]byte // the selected files
}

// Read reads the archive at path (.zip, or else a gzipped tar), keeping
// the contents of the files for which keep returns true.
func Read(path string, keep func(name string) bool) (*Archive, error) {
	a := &Archive{Contents: map[string][]byte{}}
	add := func(name string, r io.Reader) error {
		a.Names = append(a.Names, name)
		if keep != nil && keep(name) {
			data, err := io.ReadAll(r)
			if err != nil {
				return fmt.Errorf("%s: %s: %v", path, name, err)
			}
			a.Contents[name] = data
		}
		return nil
	}
	if strings.HasSuffix(path, ".zip") {
		z, err := zip.OpenReader(path)
		if err != nil {
			return nil, err
		}
		defer z.Close()
		for _, f := range z.File {
			if f.FileInfo().IsDir() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			err = add(f.Name, rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		tr := tar.NewReader(gz)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
			if h.Typeflag == tar.TypeReg {
				if err := add(h.Name, tr); err != nil {
					return nil, err
				}
			}
		}
	}
	sort.Strings(a.Names)
	return a, nil
}

// Has reports whether the archive holds the file name.
func (a *Archive) Has(name string) bool {
	i := sort.SearchStrings(a.Names, name)
	return i < len(a.Names) && a.Names[i] == name
}

// Exe is the name of an executable on goos.
func Exe(goos, name string) string {
	if goos == "windows" {
		return name + ".exe"
	}
	return name
}

// CheckBinaryTree fails unless a, the binary archive of the Go release
// version for goos/goarch, holds the tree of one: VERSION naming it, the
// go and gofmt commands and the compiler and linker for that platform and
// no other, and the runtime's source (including the file named by
// mustHave, relative to go/). It checks the go command's file header.
func CheckBinaryTree(a *Archive, version, goos, goarch string, mustHave ...string) error {
	var errs []error
	tools := "go/pkg/tool/" + goos + "_" + goarch + "/"
	want := append([]string{
		"go/VERSION",
		"go/bin/" + Exe(goos, "go"),
		"go/bin/" + Exe(goos, "gofmt"),
		tools + Exe(goos, "compile"),
		tools + Exe(goos, "link"),
		"go/src/runtime/proc.go",
	}, prefixed("go/", mustHave)...)
	for _, w := range want {
		if !a.Has(w) {
			errs = append(errs, fmt.Errorf("no %s", w))
		}
	}
	for _, n := range a.Names {
		if strings.HasPrefix(n, "go/pkg/tool/") && !strings.HasPrefix(n, tools) {
			errs = append(errs, fmt.Errorf("%s: a tool for another platform", n))
			break
		}
		if rest, ok := strings.CutPrefix(n, "go/bin/"); ok && strings.Contains(rest, "/") {
			errs = append(errs, fmt.Errorf("%s: a command for another platform", n))
			break
		}
	}
	if v, ok := a.Contents["go/VERSION"]; !ok {
		errs = append(errs, errors.New("go/VERSION was not read"))
	} else if first, _, _ := strings.Cut(string(v), "\n"); first != version {
		errs = append(errs, fmt.Errorf("go/VERSION says %q, want %q", first, version))
	}
	if bin, ok := a.Contents["go/bin/"+Exe(goos, "go")]; ok {
		if err := CheckExecutable(bin, goos, goarch); err != nil {
			errs = append(errs, fmt.Errorf("go/bin/%s: %v", Exe(goos, "go"), err))
		}
	} else {
		errs = append(errs, fmt.Errorf("go/bin/%s was not read", Exe(goos, "go")))
	}
	return errors.Join(errs...)
}

func prefixed(prefix string, names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, prefix+n)
	}
	return out
}

// CheckExecutable fails unless data is an executable for goos/goarch: ELF
// for linux, Mach-O for darwin, PE for windows, for the machine of goarch
// (amd64 or arm64).
func CheckExecutable(data []byte, goos, goarch string) error {
	r := bytes.NewReader(data)
	switch goos {
	case "linux":
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[goarch]
		f, err := elf.NewFile(r)
		if err != nil {
			return fmt.Errorf("not an ELF file: %v", err)
		}
		if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
			return fmt.Errorf("ELF type %v, not an executable", f.Type)
		}
		if want == 0 || f.Machine != want {
			return fmt.Errorf("ELF machine %v, want one for %s", f.Machine, goarch)
		}
	case "darwin":
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[goarch]
		f, err := macho.NewFile(r)
		if err != nil {
			return fmt.Errorf("not a Mach-O file: %v", err)
		}
		if f.Type != macho.TypeExec {
			return fmt.Errorf("Mach-O type %v, not an executable", f.Type)
		}
		if want == 0 || f.Cpu != want {
			return fmt.Errorf("Mach-O CPU %v, want one for %s", f.Cpu, goarch)
		}
	case "windows":
		want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[goarch]
		f, err := pe.NewFile(r)
		if err != nil {
			return fmt.Errorf("not a PE file: %v", err)
		}
		if f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0 {
			return errors.New("PE file is not an executable image")
		}
		if want == 0 || f.Machine != want {
			return fmt.Errorf("PE machine %#x, want one for %s", f.Machine, goarch)
		}
	default:
		return fmt.Errorf("cannot check executables for %s", goos)
	}
	return nil
}
