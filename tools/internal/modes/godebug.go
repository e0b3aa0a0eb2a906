package modes

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The GODEBUG settings a Go tree's runtime knows are the names of the
// runtime's own table of settings (src/runtime/runtime1.go), the names
// runtime1.go's parser compares a key with before it looks at that table
// (memprofilerate, which sets the int MemProfileRate directly), and those of
// the table of every package's settings (src/internal/godebugs/table.go)
// that are not marked removed. A setting the runtime does not know is
// ignored, so a mode that sets one would run as the default does.
var (
	runtimeSetting = regexp.MustCompile(`\{name: "([a-z0-9]+)"`)
	parsedSetting  = regexp.MustCompile(`\bkey == "([a-z0-9]+)"`)
	tableSetting   = regexp.MustCompile(`(?m)^\s*\{Name: "([a-z0-9]+)"(.*)$`)
)

// KnownGODEBUG returns the GODEBUG settings that the runtime of the Go
// tree goroot knows.
func KnownGODEBUG(goroot string) (map[string]bool, error) {
	known := map[string]bool{}
	rt, err := os.ReadFile(filepath.Join(goroot, "src", "runtime", "runtime1.go"))
	if err != nil {
		return nil, fmt.Errorf("reading the runtime's GODEBUG settings: %v", err)
	}
	for _, m := range runtimeSetting.FindAllSubmatch(rt, -1) {
		known[string(m[1])] = true
	}
	for _, m := range parsedSetting.FindAllSubmatch(rt, -1) {
		known[string(m[1])] = true
	}
	table, err := os.ReadFile(filepath.Join(goroot, "src", "internal", "godebugs", "table.go"))
	if err != nil {
		return nil, fmt.Errorf("reading the GODEBUG settings of the standard library: %v", err)
	}
	for _, m := range tableSetting.FindAllSubmatch(table, -1) {
		if !strings.Contains(string(m[2]), "Removed:") {
			known[string(m[1])] = true
		}
	}
	if len(known) == 0 {
		return nil, fmt.Errorf("%s: found no GODEBUG setting in src/runtime/runtime1.go or src/internal/godebugs/table.go: has their form changed?", goroot)
	}
	return known, nil
}

// godebugNames returns the names of the settings in a mode's GODEBUG.
func godebugNames(m Mode) []string {
	var names []string
	for _, kv := range m.Env {
		v, ok := strings.CutPrefix(kv, "GODEBUG=")
		if !ok {
			continue
		}
		for _, setting := range strings.Split(v, ",") {
			name, _, _ := strings.Cut(setting, "=")
			names = append(names, name)
		}
	}
	return names
}

// ForTree returns b without the modes that set a GODEBUG setting the
// runtime of the Go tree goroot does not know, and the names of those it
// left out.
func ForTree(b Build, goroot string) (Build, []string, error) {
	known, err := KnownGODEBUG(goroot)
	if err != nil {
		return Build{}, nil, err
	}
	var kept []Mode
	var dropped []string
	for _, m := range b.Modes {
		ok := true
		for _, n := range godebugNames(m) {
			ok = ok && known[n]
		}
		if ok {
			kept = append(kept, m)
		} else {
			dropped = append(dropped, m.Name)
		}
	}
	b.Modes = kept
	return b, dropped, nil
}
