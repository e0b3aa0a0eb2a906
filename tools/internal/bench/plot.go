package bench

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Point is one plotted value: the median Y at X, with the range of the
// samples from Lo to Hi drawn as a whisker.
type Point struct {
	X         int
	Y, Lo, Hi float64
}

// Series is one line: one toolchain.
type Series struct {
	Name   string
	Points []Point // in increasing X
}

// Panel is one chart: a metric against GOMAXPROCS, one line per series.
type Panel struct {
	Title  string
	Kind   string // "ns" formats the axis as durations, anything else as plain numbers
	Series []Series
}

// Geometry of one panel, in SVG user units (pixels).
const (
	panelW, panelH                       = 460, 320
	padLeft, padRight, padTop, padBottom = 72, 18, 34, 46
	titleH, legendH, captionH            = 34, 26, 18
)

var seriesColors = map[string]string{
	"upstream":  "#4d4d4d",
	"spinbit":   "#1f6fb4",
	"nospinbit": "#e07b10",
	"go1.24":    "#2b9a3a",
	"go1.27":    "#9b3fb5",
}

var fallbackColors = []string{"#c0392b", "#17a2b8", "#8c6d31"}

func colorOf(name string, i int) string {
	if c, ok := seriesColors[name]; ok {
		return c
	}
	return fallbackColors[i%len(fallbackColors)]
}

// panelsPerRow is how many panels a plot puts side by side before it
// starts another row, so that a plot of five panels stays readable when a
// page scales it to its width.
const panelsPerRow = 3

// WriteSVG draws the panels in rows of up to panelsPerRow under a title
// and a shared legend. The title's first line is bold; further lines
// (after a newline) are a caption in the normal size.
// The x axis is GOMAXPROCS on a log2 scale; the y axis is linear from zero,
// or logarithmic when the values span more than a factor of 30.
func WriteSVG(w io.Writer, title string, panels []Panel) error {
	bw := bufio.NewWriter(w)
	names := seriesNames(panels)
	lines := strings.Split(title, "\n")
	top := titleH + captionH*(len(lines)-1)
	cols := min(max(1, len(panels)), panelsPerRow)
	rows := max(1, (len(panels)+panelsPerRow-1)/panelsPerRow)
	width := cols * panelW
	height := top + legendH + rows*panelH
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(bw, `<text x="%d" y="22" font-size="16" font-weight="bold">%s</text>`+"\n", padLeft, esc(lines[0]))
	for i, l := range lines[1:] {
		fmt.Fprintf(bw, `<text x="%d" y="%d" font-size="13">%s</text>`+"\n", padLeft, titleH+captionH*i+6, esc(l))
	}

	// Legend.
	x := padLeft
	for i, n := range names {
		c := colorOf(n, i)
		y := top + legendH/2
		fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>`, x, y, x+22, y, c)
		fmt.Fprintf(bw, `<text x="%d" y="%d" dominant-baseline="middle">%s</text>`+"\n", x+28, y, esc(n))
		x += 40 + 8*len(n)
	}

	for i, p := range panels {
		fmt.Fprintf(bw, `<g transform="translate(%d,%d)">`+"\n", (i%panelsPerRow)*panelW, top+legendH+(i/panelsPerRow)*panelH)
		drawPanel(bw, p, names)
		fmt.Fprintln(bw, "</g>")
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// seriesNames lists the series of all panels in first-seen order, so each
// name keeps one color everywhere.
func seriesNames(panels []Panel) []string {
	var names []string
	seen := map[string]bool{}
	for _, p := range panels {
		for _, s := range p.Series {
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
			}
		}
	}
	return names
}

func drawPanel(w io.Writer, p Panel, names []string) {
	plotW := float64(panelW - padLeft - padRight)
	plotH := float64(panelH - padTop - padBottom)
	fmt.Fprintf(w, `<text x="%d" y="18" font-weight="bold">%s</text>`+"\n", padLeft, esc(p.Title))

	var xs []int
	var ys []float64
	seenX := map[int]bool{}
	for _, s := range p.Series {
		for _, pt := range s.Points {
			if !seenX[pt.X] {
				seenX[pt.X] = true
				xs = append(xs, pt.X)
			}
			// The axis fits the medians; a whisker that reaches past it
			// is cut at its end, so that one wide interval does not
			// flatten every line of the panel.
			ys = append(ys, pt.Y)
		}
	}
	if len(xs) == 0 {
		fmt.Fprintf(w, `<text x="%d" y="%d" fill="#888">no data</text>`+"\n", padLeft+20, padTop+int(plotH/2))
		return
	}
	sort.Ints(xs)
	xpos := xScale(xs, plotW)
	ys2, ticks := chooseYScale(ys)
	ypos := func(v float64) float64 {
		return float64(padTop) + plotH*(1-min(1, max(0, ys2.frac(max(v, math.SmallestNonzeroFloat64)))))
	}

	// Grid and y labels.
	for _, t := range ticks {
		y := ypos(t)
		fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e3e3e3"/>`, padLeft, y, float64(padLeft)+plotW, y)
		fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", padLeft-6, y, esc(formatValue(t, p.Kind)))
	}
	// Axes, x ticks and labels.
	bottom := float64(padTop) + plotH
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%.1f" stroke="black"/>`, padLeft, padTop, padLeft, bottom)
	fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", padLeft, bottom, float64(padLeft)+plotW, bottom)
	for _, x := range xs {
		px := float64(padLeft) + xpos(x)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`, px, bottom, px, bottom+4)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`+"\n", px, bottom+17, x)
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">GOMAXPROCS</text>`+"\n", float64(padLeft)+plotW/2, panelH-6)
	if ys2.log {
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="end" fill="#888">log scale</text>`+"\n", float64(padLeft)+plotW, panelH-6)
	}

	// Series: whiskers first, then lines and markers on top.
	for _, s := range p.Series {
		c := colorOf(s.Name, indexOf(names, s.Name))
		var pts []string
		for _, pt := range s.Points {
			px := float64(padLeft) + xpos(pt.X)
			if pt.Hi > pt.Lo {
				fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-opacity="0.5"/>`+"\n", px, ypos(pt.Lo), px, ypos(pt.Hi), c)
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, ypos(pt.Y)))
		}
		fmt.Fprintf(w, `<polyline data-series="%s" points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", esc(s.Name), strings.Join(pts, " "), c)
		for _, pt := range s.Points {
			fmt.Fprintf(w, `<circle data-series="%s" cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s, GOMAXPROCS %d: %s (whisker %s to %s)</title></circle>`+"\n",
				esc(s.Name), float64(padLeft)+xpos(pt.X), ypos(pt.Y), c,
				esc(s.Name), pt.X, esc(formatValue(pt.Y, p.Kind)), esc(formatValue(pt.Lo, p.Kind)), esc(formatValue(pt.Hi, p.Kind)))
		}
	}
}

func indexOf(names []string, n string) int {
	for i, m := range names {
		if m == n {
			return i
		}
	}
	return 0
}

// xScale places GOMAXPROCS values on a log2 axis with a margin at both
// ends; a single value sits in the middle.
func xScale(xs []int, width float64) func(int) float64 {
	lo, hi := math.Log2(float64(xs[0])), math.Log2(float64(xs[len(xs)-1]))
	margin := 0.06 * width
	return func(x int) float64 {
		if hi == lo {
			return width / 2
		}
		return margin + (width-2*margin)*(math.Log2(float64(x))-lo)/(hi-lo)
	}
}

// yScale maps values to [0, 1] along the y axis.
type yScale struct {
	log    bool
	lo, hi float64
}

func (s yScale) frac(v float64) float64 {
	if s.log {
		return (math.Log10(v) - math.Log10(s.lo)) / (math.Log10(s.hi) - math.Log10(s.lo))
	}
	return (v - s.lo) / (s.hi - s.lo)
}

// chooseYScale picks the axis for the values and its tick marks. All
// positive values spanning more than a factor of 30 get a log axis from the
// decade below the smallest to the decade above the largest; otherwise the
// axis is linear, from zero (or the smallest value, if negative) to a round
// number at or above the largest.
func chooseYScale(vs []float64) (yScale, []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > hi { // no finite values
		return yScale{lo: 0, hi: 1}, []float64{0, 1}
	}
	if lo > 0 && hi/lo > 30 {
		s := yScale{log: true, lo: math.Pow(10, math.Floor(math.Log10(lo))), hi: math.Pow(10, math.Ceil(math.Log10(hi)))}
		var ticks []float64
		for t := s.lo; t <= s.hi*1.0001; t *= 10 {
			ticks = append(ticks, t)
		}
		return s, ticks
	}
	lo = math.Min(lo, 0)
	if hi <= lo {
		hi = lo + 1
	}
	step := niceStep((hi - lo) / 5)
	s := yScale{lo: math.Floor(lo/step) * step, hi: math.Ceil(hi/step) * step}
	var ticks []float64
	for i := 0; ; i++ {
		t := s.lo + float64(i)*step
		if t > s.hi+step/1000 {
			break
		}
		ticks = append(ticks, t)
	}
	return s, ticks
}

// niceStep rounds a positive step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// formatValue prints an axis or tooltip value: nanoseconds as a duration
// with a unit, other numbers plainly with an SI suffix when large.
func formatValue(v float64, kind string) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if kind == "ns" {
		switch {
		case a >= 1e9:
			return sig(v/1e9) + "s"
		case a >= 1e6:
			return sig(v/1e6) + "ms"
		case a >= 1e3:
			return sig(v/1e3) + "µs"
		default:
			return sig(v) + "ns"
		}
	}
	switch {
	case a >= 1e6:
		return sig(v/1e6) + "M"
	case a >= 1e3:
		return sig(v/1e3) + "k"
	case a >= 0.01:
		return sig(v)
	default:
		return strconv.FormatFloat(v, 'g', 2, 64)
	}
}

// sig prints about three significant digits without trailing zeros.
func sig(v float64) string {
	a := math.Abs(v)
	prec := 2
	switch {
	case a >= 100:
		prec = 0
	case a >= 10:
		prec = 1
	case a < 1:
		prec = 3
	}
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func esc(s string) string { return html.EscapeString(s) }
