package bench

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// bucketOf is bench/latency.go's bucketOf for sub bits: the bucket of v.
func bucketOf(v int64, sub int) int {
	if v < 1<<sub {
		return int(max(v, 0))
	}
	shift := bits.Len64(uint64(v)) - sub - 1
	return shift<<sub + int(v>>shift)
}

// histOf is the histogram bench/ would print for the values.
func histOf(sub int, values ...int64) *Hist {
	counts := map[int]uint64{}
	h := &Hist{Sub: sub}
	for _, v := range values {
		counts[bucketOf(v, sub)]++
		h.Max = max(h.Max, v)
	}
	for i := 0; i < histBuckets(sub); i++ {
		if c := counts[i]; c > 0 {
			h.Counts = append(h.Counts, BucketCount{i, c})
		}
	}
	return h
}

// The line is the one bench/'s TestHistogramLine writes: values 1, 1, 40
// and 1000 of BenchmarkHandoff at GOMAXPROCS 4 with b.N 1234.
func TestParseHistogramLine(t *testing.T) {
	const line = "histogram BenchmarkHandoff-4 1234 sub=5 max=1000 counts=1:2,40:1,190:1"
	name, iters, h, err := parseHistogramLine(line)
	if err != nil {
		t.Fatal(err)
	}
	want := Hist{Sub: 5, Max: 1000, Counts: []BucketCount{{1, 2}, {40, 1}, {190, 1}}}
	if name != "BenchmarkHandoff-4" || iters != 1234 || !reflect.DeepEqual(h, want) {
		t.Errorf("parsed %s %d %+v, want BenchmarkHandoff-4 1234 %+v", name, iters, h, want)
	}
	// bench/ puts 1000 in bucket 190; its top must hold it, the one
	// below must not.
	if hi := bucketHigh(190, 5); hi < 1000 || bucketHigh(189, 5) >= 1000 {
		t.Errorf("bucket 190 ends at %d, bucket 189 at %d: 1000 is not in bucket 190", hi, bucketHigh(189, 5))
	}
	if got := histOf(5, 1, 1, 40, 1000); !reflect.DeepEqual(*got, want) {
		t.Errorf("histOf = %+v, want %+v (the test's bucketOf is not bench/'s)", *got, want)
	}
	for _, bad := range []string{
		"histogram BenchmarkX 10 sub=5 max=3",
		"histogram BenchmarkX 0 sub=5 max=3 counts=1:1",
		"histogram BenchmarkX 10 sub=99 max=3 counts=1:1",
		"histogram BenchmarkX 10 sub=5 max=3 counts=1:1,1:2",
		"histogram BenchmarkX 10 sub=5 max=3 counts=1:0",
		"histogram BenchmarkX 10 sub=5 max=3 counts=99999:1",
		"histogram BenchmarkX 10 sub=5 max=x counts=1:1",
	} {
		if _, _, _, err := parseHistogramLine(bad); err == nil {
			t.Errorf("parseHistogramLine(%q) succeeded", bad)
		}
	}
}

func TestParseOutputHistograms(t *testing.T) {
	out := "BenchmarkHandoff-4 \t 100\t 5 ns/op\t 9 max-ns\nPASS\n" +
		"BenchmarkHandoff-4 \t 200\t 5 ns/op\t 9 max-ns\nBenchmarkHandoff \t 100\t 5 ns/op\nPASS\n" +
		"histogram BenchmarkHandoff-4 100 sub=5 max=9 counts=9:1\n" +
		"histogram BenchmarkHandoff 100 sub=5 max=7 counts=7:1\n"
	rs, err := ParseOutput(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 || rs[0].Hist == nil || rs[0].Hist.Max != 9 || rs[1].Hist != nil || rs[2].Hist == nil || rs[2].Hist.Max != 7 {
		t.Errorf("histograms went to the wrong results: %+v", rs)
	}
	_, err = ParseOutput(strings.NewReader(out + "histogram BenchmarkHandoff-8 100 sub=5 max=9 counts=9:1\n"))
	if err == nil || !strings.Contains(err.Error(), "line 8: no result of BenchmarkHandoff-8 with 100 iterations") {
		t.Errorf("a histogram without its result: error = %v", err)
	}
}

// Over a pool the quantiles are those of every value taken together, not
// a median or mean of the samples' own.
func TestMergedQuantile(t *testing.T) {
	var a, b []int64
	for v := int64(1); v <= 100; v++ {
		a = append(a, v)
		b = append(b, v+100)
	}
	// With sub=8 every value below 512 has a bucket of its own: exact.
	m := newMerged(8)
	m.add(histOf(8, a...))
	m.add(histOf(8, b...))
	for _, c := range []struct {
		q    float64
		want float64
	}{{0.5, 100}, {0.99, 198}, {0.999, 200}, {1, 200}, {0.001, 1}} {
		if got := m.quantile(c.q); got != c.want {
			t.Errorf("quantile(%g) of 1..200 = %g, want %g", c.q, got, c.want)
		}
	}
	// A bucket's top, but never above the largest value.
	m = newMerged(5)
	m.add(histOf(5, 1000, 1000, 1000))
	if got := m.quantile(0.99); got != 1000 {
		t.Errorf("quantile(0.99) of 1000, 1000, 1000 with 3%% buckets = %g, want 1000 (capped at the largest value)", got)
	}
	m.add(histOf(5, 5000))
	if got, top := m.quantile(0.5), float64(bucketHigh(bucketOf(1000, 5), 5)); got != top || top <= 1000 {
		t.Errorf("quantile(0.5) = %g, want %g, the top of 1000's bucket", got, top)
	}
	m.reset()
	if got := m.quantile(0.99); got != 0 || m.n != 0 {
		t.Errorf("after reset quantile = %g, n = %d; want 0, 0", got, m.n)
	}
}

func TestPercentileInterval(t *testing.T) {
	var vs []float64
	for i := 100; i >= 0; i-- {
		vs = append(vs, float64(i))
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if lo, hi := percentileInterval(vs, 0.95); !near(lo, 2.5) || !near(hi, 97.5) {
		t.Errorf("95%% interval of 0..100 = [%g, %g], want [2.5, 97.5]", lo, hi)
	}
	if lo, hi := percentileInterval(vs, 0.5); !near(lo, 25) || !near(hi, 75) {
		t.Errorf("50%% interval of 0..100 = [%g, %g], want [25, 75]", lo, hi)
	}
}

// simulatedPool is runs runs of samples samples of each toolchain, each
// sample n waits drawn from a log-normal distribution; the fork's waits
// are scale times the base's in distribution, so every quantile's true
// change is scale-1. Each run has a speed of its own that both
// toolchains share, as a boot of the machine does.
func simulatedPool(rng *rand.Rand, runs, samples, n int, scale float64) (base, fork sampleHists) {
	draw := func(speed, scale float64) *Hist {
		vs := make([]int64, n)
		for i := range vs {
			vs[i] = int64(speed * scale * math.Exp(math.Log(20000)+rng.NormFloat64()))
		}
		return histOf(3, vs...)
	}
	for r := 0; r < runs; r++ {
		speed := 1 + 0.7*rng.Float64()
		var b, f []*Hist
		for s := 0; s < samples; s++ {
			b, f = append(b, draw(speed, 1)), append(f, draw(speed, scale))
		}
		base, fork = append(base, b), append(fork, f)
	}
	return base, fork
}

// The bootstrap intervals of p99 and p99.9 cover the true change in
// about 95% of pools, both when the fork is the same as the base (true
// change 0) and when its waits are twice as long (true change +100%), and
// a doubling shows as a difference.
func TestTailIntervalsCover(t *testing.T) {
	const trials = 40
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		scale float64
		what  string
	}{{1, "the same distribution"}, {2, "waits twice as long"}} {
		covered := map[string]int{}
		shown := map[string]int{}
		for trial := 0; trial < trials; trial++ {
			base, fork := simulatedPool(rng, 3, 5, 400, c.scale)
			rows := compareTails("X", 3, base, fork, rng, 300)
			for _, r := range rows[:2] { // p99 and p99.9; a max's bootstrap is known to be poor
				// Doubling a wait moves it one power of two up, to a
				// bucket whose top is twice as high (and 1ns).
				truth := c.scale - 1
				if r.Lo-0.001 <= truth && truth <= r.Hi+0.001 {
					covered[r.Metric]++
				}
				if r.Shown() {
					shown[r.Metric]++
				}
			}
		}
		for _, m := range []string{"p99", "p99.9"} {
			t.Logf("%s: %s: covered %d of %d, shown %d", c.what, m, covered[m], trials, shown[m])
			if covered[m] < trials*8/10 {
				t.Errorf("%s: the %s interval covered the true change in %d of %d pools, want about 95%%", c.what, m, covered[m], trials)
			}
			if c.scale != 1 && shown[m] < trials*9/10 {
				t.Errorf("%s: the %s interval left out zero in %d of %d pools, want nearly all", c.what, m, shown[m], trials)
			}
		}
	}
}

// The same pool gives the same table, and a row's interval does not
// depend on the other rows.
func TestTailsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base, fork := simulatedPool(rng, 3, 4, 200, 1.5)
	results := func(hs sampleHists, name string, procs int) [][]Result {
		var runs [][]Result
		for _, run := range hs {
			var rs []Result
			for _, h := range run {
				rs = append(rs, Result{Name: name, Procs: procs, Iters: 1, Hist: h})
			}
			runs = append(runs, rs)
		}
		return runs
	}
	one := map[string][][]Result{"upstream": results(base, "Handoff", 4), "spinbit": results(fork, "Handoff", 4)}
	cs := []Comparison{{New: "spinbit", Base: "upstream"}}
	a, err := tailComparisons(cs, one)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tailComparisons(cs, one)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two tables of the same pool differ:\n%+v\n%+v", a, b)
	}
	two := map[string][][]Result{}
	for name, runs := range one {
		other := results(base, "Capture", 8)
		for i := range runs {
			two[name] = append(two[name], append(append([]Result(nil), runs[i]...), other[i]...))
		}
	}
	c, _ := tailComparisons(cs, two)
	var handoff []tailRow
	for _, r := range c[cs[0]] {
		if r.Bench == "Handoff-4" {
			handoff = append(handoff, r)
		}
	}
	if !reflect.DeepEqual(a[cs[0]], handoff) {
		t.Errorf("Handoff-4's rows changed when Capture-8 joined the table:\n%+v\n%+v", a[cs[0]], handoff)
	}
}

func TestWriteTails(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	same, _ := simulatedPool(rng, 3, 10, 200, 1)
	runs := map[string][][]Result{}
	for _, name := range []string{"upstream", "spinbit"} {
		for _, run := range same {
			var rs []Result
			for _, h := range run {
				rs = append(rs, Result{Name: "Handoff", Procs: 4, Iters: 1, Hist: h})
			}
			runs[name] = append(runs[name], rs)
		}
	}
	dir := t.TempDir()
	file, err := writeTails(dir, []Comparison{{New: "spinbit", Base: "upstream"}}, runs)
	if err != nil || file != tailsFile {
		t.Fatalf("writeTails = %q, %v", file, err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, tailsFile))
	for _, want := range []string{"every sample of the 3 runs", "## spinbit vs upstream", "| Handoff-4 | p99 | 3 runs, 30+30 samples |", "| ~ (+0.0%) |", "| Handoff-4 | p99.9 |", "| Handoff-4 | max |"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("%s lacks %q:\n%s", tailsFile, want, page)
		}
	}
	// Without histograms there is no table.
	if file, err := writeTails(t.TempDir(), []Comparison{{New: "spinbit", Base: "upstream"}}, map[string][][]Result{"spinbit": {{{Name: "Select"}}}}); file != "" || err != nil {
		t.Errorf("writeTails without histograms = %q, %v; want no file", file, err)
	}
}
