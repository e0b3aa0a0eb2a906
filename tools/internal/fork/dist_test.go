package fork

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParsePlatform(t *testing.T) {
	p, err := ParsePlatform("darwin/arm64")
	if err != nil || p != (Platform{"darwin", "arm64"}) || p.Dash() != "darwin-arm64" {
		t.Errorf("ParsePlatform(darwin/arm64) = %v, %v", p, err)
	}
	for _, bad := range []string{"", "linux", "linux-amd64", "/amd64", "linux/", "a/b/c"} {
		if _, err := ParsePlatform(bad); err == nil {
			t.Errorf("ParsePlatform(%q) succeeded", bad)
		}
	}
}

func TestDistFiles(t *testing.T) {
	files := DistFiles("go1.23.12-spinbit", Platform{"linux", "amd64"})
	for _, want := range []string{
		"go1.23.12-spinbit.src.tar.gz",
		"go1.23.12-spinbit.linux-amd64.tar.gz",
		"go1.23.12-spinbit.linux-arm64.tar.gz",
		"go1.23.12-spinbit.darwin-amd64.tar.gz",
		"go1.23.12-spinbit.darwin-arm64.tar.gz",
		"go1.23.12-spinbit.windows-amd64.zip",
		"proxy/golang.org/toolchain/@v/list",
		"proxy/golang.org/toolchain/@v/v0.0.1-go1.23.12-spinbit.linux-amd64.zip",
		"proxy/golang.org/toolchain/@v/v0.0.1-go1.23.12-spinbit.windows-amd64.info",
		"proxy/golang.org/toolchain/@v/v0.0.1-go1.23.12-spinbit.darwin-arm64.mod",
	} {
		if !contains(files, want) {
			t.Errorf("DistFiles lacks %s", want)
		}
	}
	if len(files) != 2+5*4 {
		t.Errorf("DistFiles has %d files, want 22 (source, list, and 4 per platform): %v", len(files), files)
	}
	// A host that is one of the targets is not built twice.
	if n := len(DistFiles("go1.23.12-spinbit", Platform{"darwin", "arm64"})); n != 2+4*4 {
		t.Errorf("DistFiles on darwin/arm64 has %d files, want 18", n)
	}
	if DistPlatforms(Platform{"linux", "arm64"})[0] != (Platform{"linux", "arm64"}) {
		t.Errorf("DistPlatforms does not start with the host")
	}
	if got := DistFiles("go1.23.12-spinbit", Platform{"freebsd", "amd64"}); !contains(got, "go1.23.12-spinbit.freebsd-amd64.tar.gz") {
		t.Errorf("DistFiles on freebsd/amd64 lacks the host archive: %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	from, dist := filepath.Join(dir, "from"), filepath.Join(dir, "dist")
	writeFiles(t, from, map[string]string{
		"go9.src.tar.gz":              "src",
		"go9.linux-arm64.tar.gz":      "bin",
		"v0.0.1-go9.linux-arm64.zip":  "zip",
		"v0.0.1-go9.linux-arm64.mod":  "mod",
		"v0.0.1-go9.linux-arm64.info": "info",
	})
	os.MkdirAll(filepath.Join(dist, ModuleDir), 0o755)
	if err := collect(from, dist, "go9"); err != nil {
		t.Fatal(err)
	}
	want := []string{"go9.linux-arm64.tar.gz", "go9.src.tar.gz", ModuleDir + "/v0.0.1-go9.linux-arm64.info",
		ModuleDir + "/v0.0.1-go9.linux-arm64.mod", ModuleDir + "/v0.0.1-go9.linux-arm64.zip"}
	if err := CheckDistFiles(dist, want); err != nil {
		t.Fatal(err)
	}
	// A second platform's run brings the same source archive: accepted.
	writeFiles(t, from, map[string]string{"go9.src.tar.gz": "src", "go9.windows-amd64.zip": "win"})
	if err := collect(from, dist, "go9"); err != nil {
		t.Fatalf("same source archive again: %v", err)
	}
	// A different one is not.
	writeFiles(t, from, map[string]string{"go9.src.tar.gz": "other"})
	if err := collect(from, dist, "go9"); err == nil || !strings.Contains(err.Error(), "source archive differs") {
		t.Errorf("a different source archive: got %v", err)
	}
	// An empty distpack folder means distpack wrote nothing.
	os.RemoveAll(from)
	os.MkdirAll(from, 0o755)
	if err := collect(from, dist, "go9"); err == nil {
		t.Errorf("an empty distpack folder was accepted")
	}
}

func TestCheckDistFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a": "1", "p/b": "2", SumsFile: "", distStamp: ""})
	if err := CheckDistFiles(dir, []string{"a", "p/b"}); err != nil {
		t.Errorf("exact set: %v", err)
	}
	err := CheckDistFiles(dir, []string{"a", "p/c"})
	if err == nil || !strings.Contains(err.Error(), "missing [p/c]") || !strings.Contains(err.Error(), "unexpected [p/b]") {
		t.Errorf("wrong set: got %v, want p/c missing and p/b unexpected", err)
	}
}

func TestSums(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a": "hello\n", "p/b": ""})
	sums, err := SumFiles(dir, []string{"a", "p/b"})
	if err != nil {
		t.Fatal(err)
	}
	// The digests sha256sum prints for these contents.
	want := "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  a\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  p/b\n"
	if string(sums) != want {
		t.Errorf("SumFiles =\n%s\nwant\n%s", sums, want)
	}
	os.WriteFile(filepath.Join(dir, SumsFile), sums, 0o644)
	if err := CheckSums(dir); err != nil {
		t.Errorf("CheckSums of fresh sums: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "a"), []byte("changed\n"), 0o644)
	if err := CheckSums(dir); err == nil || !strings.Contains(err.Error(), "a: sha256") {
		t.Errorf("CheckSums after a change: got %v", err)
	}
	os.WriteFile(filepath.Join(dir, SumsFile), nil, 0o644)
	if err := CheckSums(dir); err == nil {
		t.Errorf("CheckSums of an empty sums file succeeded")
	}
}

func TestDistHostOnly(t *testing.T) {
	host := Platform{"linux", "amd64"}
	files := distFilesOf("go1.23.12-spinbit", distPlatforms(host, true))
	want := []string{
		"go1.23.12-spinbit.linux-amd64.tar.gz",
		"go1.23.12-spinbit.src.tar.gz",
		"proxy/golang.org/toolchain/@v/list",
		"proxy/golang.org/toolchain/@v/v0.0.1-go1.23.12-spinbit.linux-amd64.info",
		"proxy/golang.org/toolchain/@v/v0.0.1-go1.23.12-spinbit.linux-amd64.mod",
		"proxy/golang.org/toolchain/@v/v0.0.1-go1.23.12-spinbit.linux-amd64.zip",
	}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("host-only files = %v, want %v", files, want)
	}
	if got := distPlatforms(host, false); len(got) != 1+len(DistTargets) {
		t.Errorf("every platform = %v", got)
	}

	const build = "tree abc GOEXPERIMENT=\n"
	all, hostOnly := distStampText(build, false), distStampText(build, true)
	if all == hostOnly {
		t.Fatalf("the stamps of a host-only and a full dist/ are the same: %q", all)
	}
	for _, tc := range []struct {
		old      string
		hostOnly bool
		want     bool
	}{
		{all, false, true},
		{all, true, true},        // every platform's files hold the host's
		{hostOnly, true, true},   // the host's files again
		{hostOnly, false, false}, // the cross builds are missing
		{distStampText("tree def GOEXPERIMENT=\n", false), true, false},
	} {
		if got := stampSatisfies(tc.old, build, tc.hostOnly); got != tc.want {
			t.Errorf("stampSatisfies(%q, hostOnly %v) = %v, want %v", tc.old, tc.hostOnly, got, tc.want)
		}
	}
}
