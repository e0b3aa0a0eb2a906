package model

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		file string
		want Result
	}{
		{"safety-holds.txt", Result{States: 881006, Transitions: 2519825, Depth: 345639,
			MemoryMB: 505.966, Elapsed: 1340 * time.Millisecond}},
		{"liveness-holds.txt", Result{States: 1342758, Transitions: 52575579, Depth: 412,
			MemoryMB: 364.218, Elapsed: 14600 * time.Millisecond}},
		{"assertion.txt", Result{Errors: 1, Violation: "assertion violated (blind[me]<=2)", States: 1850,
			Transitions: 2517, Depth: 5038, MemoryMB: 288.510, Elapsed: 10 * time.Millisecond,
			Incomplete: "search not completed"}},
		{"invalid-end-state.txt", Result{Errors: 1, Violation: "invalid end state", States: 58, Transitions: 63,
			Depth: 77, MemoryMB: 181.601, Incomplete: "search not completed"}},
		{"acceptance-cycle.txt", Result{Errors: 1, Violation: "acceptance cycle", States: 157, Transitions: 814,
			Depth: 773, MemoryMB: 288.413, Elapsed: 10 * time.Millisecond, Incomplete: "search not completed"}},
		{"depth-too-small.txt", Result{States: 2181125, Transitions: 6313512, Depth: 999999,
			MemoryMB: 457.871, Elapsed: 3640 * time.Millisecond, Incomplete: "max search depth too small (raise pan's -m)"}},
		{"memlim.txt", Result{States: 74882247, Transitions: 195304390, Depth: 503,
			MemoryMB: 4095.945, Elapsed: 212 * time.Second, Incomplete: "out of memory (the -DMEMLIM bound)"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(string(out))
			if err != nil {
				t.Fatal(err)
			}
			got.Elapsed = got.Elapsed.Round(time.Millisecond)
			if got != tt.want {
				t.Errorf("Parse:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseUnfinished(t *testing.T) {
	for name, out := range map[string]string{
		"empty":      "",
		"crashed":    "pan: out of memory\nSegmentation fault\n",
		"no summary": "(Spin Version 6.5.2 -- 6 December 2019)\n",
		"errors without a report": "State-vector 132 byte, depth reached 10, errors: 1\n" +
			"  5 states, stored\n  6 transitions (= stored+matched)\n",
	} {
		if r, err := Parse(out); err == nil {
			t.Errorf("%s: Parse = %+v, nil; want an error", name, r)
		}
	}
}
