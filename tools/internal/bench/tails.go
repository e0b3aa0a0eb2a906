package bench

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// tailsFile is the table of tail latencies a run or pool writes beside its
// benchstat tables, when its benchmarks printed histograms (Hist).
const tailsFile = "tails.md"

// tailQuantiles are the tail metrics of tailsFile, over every wait of
// every sample of a benchmark at one GOMAXPROCS taken together.
var tailQuantiles = []struct {
	Name string
	Q    float64
}{{"p99", 0.99}, {"p99.9", 0.999}, {"max", 1}}

// tailResamples is how many bootstrap resamples an interval takes, and
// tailSeed seeds them (with the row's name), so that the same raw output
// gives the same table.
const (
	tailResamples = 1000
	tailSeed      = 0x5b17
	tailLevel     = 0.95
)

// A tailRow compares one tail metric of one benchmark at one GOMAXPROCS
// between two toolchains.
type tailRow struct {
	Bench       string  // as benchstat prints it: Handoff-4
	Metric      string  // a name of tailQuantiles
	Runs        int     // runs with samples of both toolchains
	BaseN, NewN int     // samples of each
	BaseV, NewV float64 // the metric over the pool, in ns
	Change      float64 // NewV/BaseV - 1
	Lo, Hi      float64 // the tailLevel bootstrap interval of Change
}

// Shown reports whether the interval of the change leaves out zero: the
// pool shows a difference.
func (r tailRow) Shown() bool { return r.Lo > 0 || r.Hi < 0 }

// sampleHists are the histograms of one toolchain's samples of one
// benchmark at one GOMAXPROCS, by run: [run][sample].
type sampleHists [][]*Hist

// tailKey names a benchmark at one GOMAXPROCS.
type tailKey struct {
	Name  string
	Procs int
}

func (k tailKey) String() string {
	if k.Procs == 1 {
		return k.Name
	}
	return fmt.Sprintf("%s-%d", k.Name, k.Procs)
}

// histsByRun groups the histograms of one toolchain's results, given run
// by run, by benchmark and GOMAXPROCS. Every histogram must have the same
// Sub.
func histsByRun(runs [][]Result) (map[tailKey]sampleHists, int, error) {
	out := map[tailKey]sampleHists{}
	sub := -1
	for i, rs := range runs {
		for _, r := range rs {
			if r.Hist == nil {
				continue
			}
			if sub >= 0 && r.Hist.Sub != sub {
				return nil, 0, fmt.Errorf("histograms of sub=%d and sub=%d cannot be merged: were the runs made with different bench/ code?", sub, r.Hist.Sub)
			}
			sub = r.Hist.Sub
			k := tailKey{r.Name, r.Procs}
			if out[k] == nil {
				out[k] = make(sampleHists, len(runs))
			}
			out[k][i] = append(out[k][i], r.Hist)
		}
	}
	return out, sub, nil
}

// compareTails compares each of tailQuantiles over the samples of base
// and fork, and bootstraps an interval of each change. Both are given
// run by run, the same runs in the same order; runs in which either has
// no sample are left out. A resample draws as many runs as there are,
// with replacement, and within each drawn run as many samples of each
// toolchain as it has, with replacement: a run's toolchains were
// interleaved on one boot of the machine, so they are resampled together,
// and the spread between runs (boots, days) is part of the interval.
func compareTails(name string, sub int, base, fork sampleHists, rng *rand.Rand, resamples int) []tailRow {
	var b, f sampleHists
	for i := range base {
		if i < len(fork) && len(base[i]) > 0 && len(fork[i]) > 0 {
			b, f = append(b, base[i]), append(f, fork[i])
		}
	}
	if len(b) == 0 {
		return nil
	}
	mb, mf := newMerged(sub), newMerged(sub)
	values := func() (bv, fv []float64) {
		for _, q := range tailQuantiles {
			bv, fv = append(bv, mb.quantile(q.Q)), append(fv, mf.quantile(q.Q))
		}
		return bv, fv
	}
	var nb, nf int
	for i := range b {
		for _, h := range b[i] {
			mb.add(h)
		}
		for _, h := range f[i] {
			mf.add(h)
		}
		nb, nf = nb+len(b[i]), nf+len(f[i])
	}
	bv, fv := values()
	rows := make([]tailRow, len(tailQuantiles))
	for qi, q := range tailQuantiles {
		rows[qi] = tailRow{Bench: name, Metric: q.Name, Runs: len(b), BaseN: nb, NewN: nf, BaseV: bv[qi], NewV: fv[qi], Change: ratioChange(fv[qi], bv[qi])}
	}
	changes := make([][]float64, len(tailQuantiles))
	for n := 0; n < resamples; n++ {
		mb.reset()
		mf.reset()
		for range b {
			r := rng.IntN(len(b))
			for range b[r] {
				mb.add(b[r][rng.IntN(len(b[r]))])
			}
			for range f[r] {
				mf.add(f[r][rng.IntN(len(f[r]))])
			}
		}
		bv, fv := values()
		for qi := range tailQuantiles {
			changes[qi] = append(changes[qi], ratioChange(fv[qi], bv[qi]))
		}
	}
	for qi := range rows {
		rows[qi].Lo, rows[qi].Hi = percentileInterval(changes[qi], tailLevel)
	}
	return rows
}

// ratioChange is a/b - 1, or 0 when b is 0 (no values).
func ratioChange(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a/b - 1
}

// percentileInterval returns the central interval of the values that
// holds the fraction level of them: the (1-level)/2 and (1+level)/2
// quantiles, interpolated between the nearest values.
func percentileInterval(values []float64, level float64) (lo, hi float64) {
	if len(values) == 0 {
		return math.NaN(), math.NaN()
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	at := func(p float64) float64 {
		x := p * float64(len(s)-1)
		i := int(math.Floor(x))
		if i >= len(s)-1 {
			return s[len(s)-1]
		}
		return s[i] + (x-float64(i))*(s[i+1]-s[i])
	}
	return at((1 - level) / 2), at((1 + level) / 2)
}

// rowRand is the random source of one row's bootstrap: seeded with
// tailSeed and the row's name, so that each row's interval is the same
// whatever other rows the table has.
func rowRand(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(tailSeed, h.Sum64()))
}

// tailComparisons computes the rows of tailsFile for each comparison of
// the toolchains in runs (toolchain name to its results, run by run).
func tailComparisons(comparisons []Comparison, runs map[string][][]Result) (map[Comparison][]tailRow, error) {
	hists := map[string]map[tailKey]sampleHists{}
	sub := -1
	for name, rs := range runs {
		h, s, err := histsByRun(rs)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if s >= 0 && sub >= 0 && s != sub {
			return nil, fmt.Errorf("histograms of sub=%d and sub=%d cannot be compared: were the toolchains' runs made with different bench/ code?", sub, s)
		}
		if s >= 0 {
			sub = s
		}
		hists[name] = h
	}
	out := map[Comparison][]tailRow{}
	for _, c := range comparisons {
		var keys []tailKey
		for k := range hists[c.Base] {
			if _, ok := hists[c.New][k]; ok {
				keys = append(keys, k)
			}
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].Name != keys[j].Name {
				return keys[i].Name < keys[j].Name
			}
			return keys[i].Procs < keys[j].Procs
		})
		for _, k := range keys {
			rng := rowRand(c.File() + " " + k.String())
			out[c] = append(out[c], compareTails(k.String(), sub, hists[c.Base][k], hists[c.New][k], rng, tailResamples)...)
		}
	}
	return out, nil
}

// writeTails writes tailsFile into dir for the comparisons, from each
// toolchain's results run by run, and returns its name, or "" when no
// result has a histogram (the runtime's benchmarks, runs from before
// bench/ printed them).
func writeTails(dir string, comparisons []Comparison, runs map[string][][]Result) (string, error) {
	rows, err := tailComparisons(comparisons, runs)
	if err != nil {
		return "", err
	}
	n := 0
	for _, rs := range rows {
		n += len(rs)
	}
	if n == 0 {
		return "", nil
	}
	nruns := 0
	for _, rs := range runs {
		nruns = max(nruns, len(rs))
	}
	if err := os.WriteFile(filepath.Join(dir, tailsFile), []byte(tailsMarkdown(comparisons, rows, nruns)), 0o666); err != nil {
		return "", err
	}
	return tailsFile, nil
}

// tailsMarkdown renders tailsFile.
func tailsMarkdown(comparisons []Comparison, rows map[Comparison][]tailRow, runs int) string {
	var b strings.Builder
	b.WriteString("# Tail latency over every sample\n\n")
	fmt.Fprintf(&b, "From the latency histogram of every sample of the %s (within about 3%% of each value): p99, p99.9 and max of all the samples' waits taken together, for each benchmark at each GOMAXPROCS. The interval is the %g%% bootstrap interval of the change (%d resamples: the runs drawn with replacement, and within each drawn run its samples of each toolchain; the seed is fixed, so the same raw output gives the same table). `~` marks a change whose interval holds zero: no difference shown. A max is the single longest wait, and its interval cannot reach above the longest wait seen.\n\n",
		plural(runs, "run"), tailLevel*100, tailResamples)
	for _, c := range comparisons {
		rs := rows[c]
		if len(rs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n| benchmark | metric | runs, samples | %s | %s | change | %g%% interval |\n|---|---|---|---|---|---|---|\n", c, c.Base, c.New, tailLevel*100)
		for _, r := range rs {
			change := fmt.Sprintf("%+.1f%%", r.Change*100)
			if !r.Shown() {
				change = "~ (" + change + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %s, %d+%d samples | %s | %s | %s | [%+.1f%%, %+.1f%%] |\n",
				r.Bench, r.Metric, plural(r.Runs, "run"), r.BaseN, r.NewN, formatValue(r.BaseV, "ns"), formatValue(r.NewV, "ns"), change, r.Lo*100, r.Hi*100)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// plural is n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
