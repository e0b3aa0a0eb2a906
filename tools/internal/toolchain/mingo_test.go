package toolchain

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The minimum Go version is stated in several places; they must agree with
// the go line of tools/go.mod, which is what a go command enforces.
func TestMinGoAgrees(t *testing.T) {
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.FromSlash(rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gomod := read("../../go.mod")
	m := regexp.MustCompile(`(?m)^go ([0-9.]+)$`).FindStringSubmatch(gomod)
	if m == nil {
		t.Fatal("tools/go.mod has no go line")
	}
	// go mod tidy writes the go line as 1.22.0 once a requirement's go
	// line does (wazero's); the first release of Go 1.22 is what both ask.
	if m[1] != MinGo && m[1] != MinGo+".0" {
		t.Errorf("tools/go.mod says go %s, MinGo is %s", m[1], MinGo)
	}
	want := "Go " + MinGo + " or later"
	script := read("../../require-go.bash")
	if !strings.Contains(script, want) {
		t.Errorf("tools/require-go.bash does not say %q", want)
	}
	// The case pattern must refuse the minor version just below MinGo and
	// not MinGo itself.
	minor := strings.TrimPrefix(MinGo, "1.")
	below := map[string]string{"22": "2[01]"}[minor]
	if below == "" {
		t.Fatalf("update this test and tools/require-go.bash's version pattern for MinGo %s", MinGo)
	}
	if !strings.Contains(script, "go1."+below+" |") {
		t.Errorf("tools/require-go.bash does not refuse go1.%s", below)
	}
	for _, doc := range []string{"../../../README.md", "../../../doc/install.md"} {
		text := read(doc)
		if !strings.Contains(text, want) {
			t.Errorf("%s does not say %q", doc, want)
		}
		for _, other := range regexp.MustCompile(`Go 1\.[0-9]+ or later`).FindAllString(text, -1) {
			if other != want {
				t.Errorf("%s says %q, want %q", doc, other, want)
			}
		}
	}
	for _, script := range []string{"../../../make.bash", "../../../test.bash", "../../../bench.bash", "../../patch.bash"} {
		if !strings.Contains(read(script), "require_go ") {
			t.Errorf("%s does not call require_go", script)
		}
	}
}
