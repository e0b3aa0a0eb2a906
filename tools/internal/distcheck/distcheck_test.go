package distcheck

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/macho"
	"debug/pe"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// machO returns the smallest Mach-O executable header for cpu.
func machO(cpu macho.Cpu) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, macho.FileHeader{Magic: macho.Magic64, Cpu: cpu, Type: macho.TypeExec})
	b.Write(make([]byte, 4)) // the reserved word of a 64-bit header
	return b.Bytes()
}

// peExe returns the smallest PE executable header for machine.
func peExe(machine uint16) []byte {
	b := make([]byte, 0x40)
	copy(b, "MZ")
	binary.LittleEndian.PutUint32(b[0x3c:], 0x40)
	var buf bytes.Buffer
	buf.Write(b)
	buf.WriteString("PE\x00\x00")
	binary.Write(&buf, binary.LittleEndian, pe.FileHeader{Machine: machine, Characteristics: pe.IMAGE_FILE_EXECUTABLE_IMAGE})
	buf.Write(make([]byte, 256)) // debug/pe reads on past the header
	return buf.Bytes()
}

func TestCheckExecutable(t *testing.T) {
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	ok := []struct {
		data         []byte
		goos, goarch string
	}{
		{machO(macho.CpuAmd64), "darwin", "amd64"},
		{machO(macho.CpuArm64), "darwin", "arm64"},
		{peExe(pe.IMAGE_FILE_MACHINE_AMD64), "windows", "amd64"},
	}
	if runtime.GOOS == "linux" {
		ok = append(ok, struct {
			data         []byte
			goos, goarch string
		}{self, "linux", runtime.GOARCH})
	}
	for _, c := range ok {
		if err := CheckExecutable(c.data, c.goos, c.goarch); err != nil {
			t.Errorf("%s/%s: %v", c.goos, c.goarch, err)
		}
	}
	for _, c := range []struct {
		data         []byte
		goos, goarch string
		want         string
	}{
		{machO(macho.CpuArm64), "darwin", "amd64", "Mach-O CPU"},
		{machO(macho.CpuAmd64), "windows", "amd64", "not a PE file"},
		{peExe(pe.IMAGE_FILE_MACHINE_ARM64), "windows", "amd64", "PE machine"},
		{peExe(pe.IMAGE_FILE_MACHINE_AMD64), "linux", "amd64", "not an ELF file"},
		{[]byte("#!/bin/sh\n"), "darwin", "arm64", "not a Mach-O file"},
		{self, "linux", "riscv64", "ELF machine"},
		{self, "plan9", "amd64", "cannot check"},
	} {
		if err := CheckExecutable(c.data, c.goos, c.goarch); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s/%s: got %v, want an error saying %q", c.goos, c.goarch, err, c.want)
		}
	}
}

func writeTgz(t *testing.T, path string, files map[string][]byte) {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "go/", Typeflag: tar.TypeDir, Mode: 0o755})
	for name, data := range files {
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o755, Size: int64(len(data))})
		tw.Write(data)
	}
	tw.Close()
	gz.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeZip(t *testing.T, path string, files map[string][]byte) {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, data := range files {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func tree(goos, goarch string, gobin []byte) map[string][]byte {
	tools := "go/pkg/tool/" + goos + "_" + goarch + "/"
	return map[string][]byte{
		"go/VERSION":                     []byte("go1.23.12-spinbit\ntime 2025-08-01T19:18:26Z\n"),
		"go/bin/" + Exe(goos, "go"):      gobin,
		"go/bin/" + Exe(goos, "gofmt"):   gobin,
		tools + Exe(goos, "compile"):     gobin,
		tools + Exe(goos, "link"):        gobin,
		"go/src/runtime/proc.go":         []byte("package runtime\n"),
		"go/src/runtime/lock_spinbit.go": []byte("package runtime\n"),
	}
}

func keepCheck(name string) bool { return name == "go/VERSION" || strings.HasPrefix(name, "go/bin/go") }

func TestCheckBinaryTree(t *testing.T) {
	dir := t.TempDir()
	darwin := filepath.Join(dir, "go1.23.12-spinbit.darwin-arm64.tar.gz")
	writeTgz(t, darwin, tree("darwin", "arm64", machO(macho.CpuArm64)))
	a, err := Read(darwin, keepCheck)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckBinaryTree(a, "go1.23.12-spinbit", "darwin", "arm64", "src/runtime/lock_spinbit.go"); err != nil {
		t.Errorf("a good darwin/arm64 archive: %v", err)
	}
	if len(a.Contents) != 3 || a.Has("go/") {
		t.Errorf("Read kept %d files (want VERSION, go, gofmt) or listed a directory: %v", len(a.Contents), a.Names)
	}
	// The same archive does not pass for another version or platform.
	for _, c := range []struct{ version, goos, goarch, want string }{
		{"go1.23.12", "darwin", "arm64", `VERSION says "go1.23.12-spinbit"`},
		{"go1.23.12-spinbit", "darwin", "amd64", "no go/pkg/tool/darwin_amd64/compile"},
		{"go1.23.12-spinbit", "windows", "arm64", "no go/bin/go.exe"},
	} {
		if err := CheckBinaryTree(a, c.version, c.goos, c.goarch); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("as %s for %s/%s: got %v, want an error saying %q", c.version, c.goos, c.goarch, err, c.want)
		}
	}

	windows := filepath.Join(dir, "go1.23.12-spinbit.windows-amd64.zip")
	files := tree("windows", "amd64", peExe(pe.IMAGE_FILE_MACHINE_AMD64))
	files["go/pkg/tool/linux_amd64/compile"] = []byte("stray")
	writeZip(t, windows, files)
	a, err = Read(windows, keepCheck)
	if err != nil {
		t.Fatal(err)
	}
	err = CheckBinaryTree(a, "go1.23.12-spinbit", "windows", "amd64", "src/runtime/lock_spinbit.go", "src/runtime/lock_other.go")
	for _, want := range []string{"linux_amd64/compile: a tool for another platform", "no go/src/runtime/lock_other.go"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("windows zip with a stray tool: got %v, want an error saying %q", err, want)
		}
	}
	// A go.exe for the wrong machine is caught by its header.
	files = tree("windows", "amd64", machO(macho.CpuAmd64))
	writeZip(t, windows, files)
	a, _ = Read(windows, keepCheck)
	if err := CheckBinaryTree(a, "go1.23.12-spinbit", "windows", "amd64"); err == nil || !strings.Contains(err.Error(), "not a PE file") {
		t.Errorf("windows zip with a Mach-O go.exe: got %v", err)
	}
}
