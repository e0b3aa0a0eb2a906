package fork

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompareReleases(t *testing.T) {
	ordered := []string{"go1.9", "go1.20.6", "go1.23", "go1.23.2", "go1.23.12", "go1.24beta1", "go1.24rc1", "go1.24rc2", "go1.24", "go1.24.1", "go1.27.3"}
	for i := range ordered {
		for j := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := CompareReleases(ordered[i], ordered[j]); got != want {
				t.Errorf("CompareReleases(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	if CompareReleases("notago", "go1.9") != -1 || CompareReleases("go1.9", "notago") != 1 {
		t.Errorf("a name that is not a release does not sort first")
	}
}

func TestListBases(t *testing.T) {
	r := newRepo(t, "go1.9", true)
	addBase(t, r.Root, "go1.27.3", false)
	addBase(t, r.Root, "go1.23.12", true)
	all, err := ListBases(r.Root)
	if err != nil {
		t.Fatal(err)
	}
	want := []Base{{"go1.9", true}, {"go1.23.12", true}, {"go1.27.3", false}}
	if !slices.Equal(all, want) {
		t.Errorf("ListBases = %v, want %v", all, want)
	}
	var skipped []string
	bases, err := Bases(r.Root, func(b string) { skipped = append(skipped, b) })
	if err != nil || !slices.Equal(bases, []string{"go1.9", "go1.23.12"}) || !slices.Equal(skipped, []string{"go1.27.3"}) {
		t.Errorf("Bases = %v, %v, skipped %v; want go1.9 go1.23.12, skipping go1.27.3", bases, err, skipped)
	}
	if n, err := Newest(r.Root); err != nil || n != "go1.23.12" {
		t.Errorf("Newest = %q, %v; want go1.23.12, the newest with patches/", n, err)
	}
	if err := CheckBase(r.Root, "go1.23.12"); err != nil {
		t.Errorf("CheckBase(go1.23.12): %v", err)
	}
	if err := CheckBase(r.Root, "go1.27.3"); err == nil || !strings.Contains(err.Error(), "no patches/") {
		t.Errorf("CheckBase of a base without patches/: %v", err)
	}
	if err := CheckBase(r.Root, "go1.25.0"); err == nil || !strings.Contains(err.Error(), "go1.9, go1.23.12, go1.27.3") {
		t.Errorf("CheckBase of no base: %v, want the bases listed", err)
	}
	// Preparing a base without patches/ is refused with the reason.
	r27 := Repo{Root: r.Root, Base: "go1.27.3"}
	if err := r27.Prepare(nil, false, t.Logf); err == nil || !strings.Contains(err.Error(), "no patches/") {
		t.Errorf("Prepare of a base without patches/: %v", err)
	}
	// A folder that pins another release than its name is an error.
	os.WriteFile(filepath.Join(r.Root, "bases", "go1.9", "UPSTREAM"), FormatUpstream("go1.10", "linux-amd64", "h1:x="), 0o644)
	if _, err := ListBases(r.Root); err == nil || !strings.Contains(err.Error(), "pins go1.10") {
		t.Errorf("ListBases with a misnamed folder: %v", err)
	}
}

func TestFindRoot(t *testing.T) {
	r := newRepo(t, "go1.23.12", true)
	deep := filepath.Join(r.Root, "tools", "cmd")
	os.MkdirAll(deep, 0o755)
	if got, err := FindRoot(deep); err != nil || got != r.Root {
		t.Errorf("FindRoot(%s) = %q, %v; want %s", deep, got, err, r.Root)
	}
	if _, err := FindRoot(t.TempDir()); err == nil {
		t.Errorf("FindRoot outside a checkout succeeded")
	}
}
