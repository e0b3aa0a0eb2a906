package bench

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSourceBenchmarks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("a_test.go", `package x
import "testing"
func BenchmarkChanContended(b *testing.B) {}
func BenchmarkSelect(b *testing.B) {}
func Benchmarkhelper(b *testing.B) {}   // lower case after the prefix: not a benchmark
func BenchmarkWrongArgs(t *testing.T) {} // not a *B
func BenchmarkResult(b *testing.B) int { return 0 }
type T struct{}
func (T) BenchmarkMethod(b *testing.B) {}
func TestSomething(t *testing.T) {}
`)
	write("b_test.go", `package x
import tt "testing"
func BenchmarkHTTP(b *tt.B) {}
`)
	write("c.go", `package x
func BenchmarkNotInTest(b *int) {}
`)
	got, err := SourceBenchmarks(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"BenchmarkChanContended", "BenchmarkHTTP", "BenchmarkSelect"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("all: got %v, want %v", got, want)
	}
	got, err = SourceBenchmarks(dir, "Chan|HTTP$")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"BenchmarkChanContended", "BenchmarkHTTP"}; !reflect.DeepEqual(got, want) {
		t.Errorf("filtered: got %v, want %v", got, want)
	}

	if _, err := SourceBenchmarks(t.TempDir(), "."); err == nil || !strings.Contains(err.Error(), "no _test.go files") {
		t.Errorf("empty dir: error = %v, want one saying there are no _test.go files", err)
	}
	// A file in syntax newer than go/parser's (here a method with type
	// parameters, which go1.27 allows) is read line by line.
	write("d_test.go", `package x
import "testing"
type U struct{}
func (U) M[T any]() {}
func BenchmarkNewer(b *testing.B) {
}
func BenchmarkNewerWrongArgs(t *testing.T) {
}
`)
	got, err = SourceBenchmarks(dir, "Newer|Select")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"BenchmarkNewer", "BenchmarkSelect"}; !reflect.DeepEqual(got, want) {
		t.Errorf("newer syntax: got %v, want %v", got, want)
	}
}

// TestRealBenchmarks checks that the benchmarks in bench/ can be listed and
// that each names one workload (no sub-benchmarks, which the runner's
// -bench handling does not support).
func TestRealBenchmarks(t *testing.T) {
	names, err := SourceBenchmarks("../../../bench", ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 8 {
		t.Errorf("bench/ declares only %d benchmarks: %v", len(names), names)
	}
	for _, n := range names {
		if strings.Contains(n, "/") || !isBenchmarkName(n) {
			t.Errorf("odd benchmark name %q", n)
		}
	}
}
