package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go-spinbit.dev/tools/internal/fork"
)

// The step reports a pool of an earlier series loudly and passes; in a
// tree whose patches cannot be read it warns and passes too.
func TestPublishedPoolCurrent(t *testing.T) {
	const lockPatch = "diff --git a/src/runtime/lock_spinbit.go b/src/runtime/lock_spinbit.go\n--- a/src/runtime/lock_spinbit.go\n+++ b/src/runtime/lock_spinbit.go\n@@ -1 +1 @@\n-a\n+b\n"
	root := newRepo(t, map[string][]string{"go1.27.4": {lockPatch}})
	pooled := filepath.Join(root, "bench", "report", "go1.27.3", "pooled")
	os.MkdirAll(pooled, 0o777)
	record := `{"name": "pooled-1", "provenance": {"commit": "0123456789ab", "base": "go1.27.3", "mutex": {"base": "go1.27.3", "patches": ["0001-a-b.patch"], "sha256": "00"}}}`
	if err := os.WriteFile(filepath.Join(pooled, "run.json"), []byte(record), 0o666); err != nil {
		t.Fatal(err)
	}
	lines := poolCurrencyLines(root, []string{"go1.27.4"})
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "WARNING: the published pool bench/report/go1.27.3/pooled measured the go1.27.3 series, not base go1.27.4") ||
		!strings.Contains(lines[0], "./bench.bash -base go1.27.4") {
		t.Errorf("report = %q; want a WARNING naming the go1.27.3 pool, base go1.27.4 and the command", lines)
	}
	if err := publishedPoolCurrent(context.Background(), fork.Repo{Root: root}); err != nil {
		t.Errorf("the step failed on a stale pool: %v", err)
	}
	os.WriteFile(filepath.Join(root, "bases", "go1.27.4", "patches", "stray.txt"), nil, 0o666)
	if lines := poolCurrencyLines(root, []string{"go1.27.4"}); len(lines) != 1 || !strings.HasPrefix(lines[0], "WARNING: cannot tell whether base go1.27.4's published pool is current") {
		t.Errorf("report on an unreadable series = %q", lines)
	}
}
