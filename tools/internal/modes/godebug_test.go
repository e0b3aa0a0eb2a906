package modes

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A tree whose runtime knows sbrk and runtimecontentionstacks from its
// table and memprofilerate from its parser, and whose table has removed
// asynctimerchan.
func TestForTree(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"src/runtime/runtime1.go": "var dbgvars = []*dbgVar{\n\t{name: \"sbrk\", value: &debug.sbrk},\n\t{name: \"runtimecontentionstacks\", atomic: &x},\n}\n" +
			"func parsegodebug() {\n\tif seen == nil && key == \"memprofilerate\" {\n\t}\n}\n",
		"src/internal/godebugs/table.go": "var All = []Info{\n\t{Name: \"asynctimerchan\", Package: \"time\", Removed: 27},\n" +
			"\t{Name: \"madvdontneed\", Package: \"runtime\", Changed: 16},\n}\n",
	}
	for name, src := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := Build{Name: "program", Modes: []Mode{
		{Name: "default"},
		godebug("sbrk=1"),
		godebug("asynctimerchan=1"),
		godebug("madvdontneed=0"),
		godebug("memprofilerate=1"),
		godebug("sbrk=1,efence=1"),
		{Name: "profile GODEBUG=runtimecontentionstacks=1", Env: []string{"GODEBUG=runtimecontentionstacks=1"}},
		envMode("GOGC=1"),
	}}
	got, dropped, err := ForTree(b, root)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, m := range got.Modes {
		kept = append(kept, m.Name)
	}
	wantKept := []string{"default", "GODEBUG=sbrk=1", "GODEBUG=madvdontneed=0", "GODEBUG=memprofilerate=1", "profile GODEBUG=runtimecontentionstacks=1", "GOGC=1"}
	wantDropped := []string{"GODEBUG=asynctimerchan=1", "GODEBUG=sbrk=1,efence=1"}
	if !slices.Equal(kept, wantKept) || !slices.Equal(dropped, wantDropped) {
		t.Errorf("ForTree kept %q, dropped %q; want %q and %q", kept, dropped, wantKept, wantDropped)
	}
	if len(b.Modes) != 8 {
		t.Errorf("ForTree changed the catalog's own build")
	}
	if _, _, err := ForTree(b, t.TempDir()); err == nil {
		t.Errorf("ForTree of a tree without the tables succeeded")
	}
}

// KnownGODEBUG reads the real tables of every base whose tree is laid out:
// settings every release since go1.23 has must be among what it finds.
func TestCatalogKnownToTree(t *testing.T) {
	trees, _ := filepath.Glob("../../../goroot/go1.*")
	if len(trees) == 0 {
		t.Skip("no base's tree is laid out in goroot/")
	}
	for _, tree := range trees {
		known, err := KnownGODEBUG(tree)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"sbrk", "efence", "gcstoptheworld", "madvdontneed", "memprofilerate"} {
			if !known[n] {
				t.Errorf("%s: the runtime's GODEBUG %s was not found: has runtime1.go's table changed form?", tree, n)
			}
		}
	}
}
