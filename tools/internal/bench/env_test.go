package bench

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildEnv(t *testing.T) {
	base := []string{"HOME=/h", "PATH=/usr/bin", "GOFLAGS=-mod=vendor", "GOROOT=/other", "GOTOOLCHAIN=auto", "GOEXPERIMENT=arenas", "GOWORK=/w/go.work", "GOMAXPROCS=3"}
	env := buildEnv(base, "/fork", "nospinbitmutex")
	for name, want := range map[string]string{
		"GOROOT": "/fork", "GOTOOLCHAIN": "local", "GOENV": "off", "GOFLAGS": "", "GOWORK": "off",
		"GOEXPERIMENT": "nospinbitmutex", "HOME": "/h", "PATH": filepath.Join("/fork", "bin") + string(filepath.ListSeparator) + "/usr/bin",
	} {
		if got, ok := lookup(env, name); !ok || got != want {
			t.Errorf("%s = %q (set: %v), want %q", name, got, ok, want)
		}
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOFLAGS=-mod") || strings.HasPrefix(kv, "GOROOT=/other") || kv == "GOEXPERIMENT=arenas" {
			t.Errorf("caller's %s leaked into the build environment", kv)
		}
	}
	if _, ok := lookup(buildEnv(base, "/go", ""), "GOEXPERIMENT"); ok {
		t.Error("GOEXPERIMENT set for a toolchain without an experiment")
	}

	run := runEnv([]string{"GOMAXPROCS=3", "GODEBUG=x=1", "GOGC=off", "HOME=/h"})
	if len(run) != 1 || run[0] != "HOME=/h" {
		t.Errorf("runEnv kept %q, want only HOME", run)
	}
}
