package bench

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
)

// svgElements decodes an SVG and counts its elements by name, failing the
// test if it is not well-formed XML.
func svgElements(t *testing.T, data []byte) (map[string]int, []xml.StartElement) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	count := map[string]int{}
	var all []xml.StartElement
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, data)
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
			all = append(all, se.Copy())
		}
	}
	return count, all
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func TestWriteSVG(t *testing.T) {
	panels := []Panel{
		{Title: "time <per> op & more", Kind: "ns", Series: []Series{
			{Name: "upstream", Points: []Point{{X: 1, Y: 100, Lo: 90, Hi: 120}, {X: 4, Y: 300, Lo: 300, Hi: 300}, {X: 16, Y: 900, Lo: 800, Hi: 1000}}},
			{Name: "spinbit", Points: []Point{{X: 1, Y: 100, Lo: 100, Hi: 100}, {X: 4, Y: 150, Lo: 140, Hi: 160}, {X: 16, Y: 200, Lo: 190, Hi: 210}}},
		}},
		{Title: "switches", Kind: "count", Series: []Series{
			{Name: "upstream", Points: []Point{{X: 1, Y: 0}}},
		}},
		{Title: "empty", Kind: "count"},
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, "Chan<Contended>", panels); err != nil {
		t.Fatal(err)
	}
	count, els := svgElements(t, buf.Bytes())
	if els[0].Name.Local != "svg" {
		t.Fatalf("root element %s, want svg", els[0].Name.Local)
	}
	if count["polyline"] != 3 || count["circle"] != 7 {
		t.Errorf("%d polylines and %d circles, want 3 lines and one circle per point (7)", count["polyline"], count["circle"])
	}
	// Whiskers only where the range is not a single value: 4 of 7 points.
	whiskers := 0
	var upstreamY []float64
	for _, e := range els {
		if e.Name.Local == "line" && attr(e, "stroke-opacity") == "0.5" {
			whiskers++
		}
		if e.Name.Local == "circle" && attr(e, "data-series") == "upstream" && len(upstreamY) < 3 {
			y, err := strconv.ParseFloat(attr(e, "cy"), 64)
			if err != nil {
				t.Fatal(err)
			}
			upstreamY = append(upstreamY, y)
		}
	}
	if whiskers != 4 {
		t.Errorf("%d whiskers, want 4", whiskers)
	}
	// Larger values sit higher on the page: smaller y.
	if !(upstreamY[0] > upstreamY[1] && upstreamY[1] > upstreamY[2]) {
		t.Errorf("upstream's rising values are not drawn rising: y = %v", upstreamY)
	}
	s := buf.String()
	for _, want := range []string{"Chan&lt;Contended&gt;", "time &lt;per&gt; op &amp; more", "no data", "GOMAXPROCS", ">16<"} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestYScale(t *testing.T) {
	s, ticks := chooseYScale([]float64{0.3, 7.3, 2})
	if s.log || s.lo != 0 || s.hi != 8 || len(ticks) != 5 || ticks[4] != 8 {
		t.Errorf("linear 0.3..7.3: scale %+v ticks %v, want 0..8 by 2", s, ticks)
	}
	if f := s.frac(4); f != 0.5 {
		t.Errorf("frac(4) on 0..8 = %v", f)
	}
	s, ticks = chooseYScale([]float64{50, 120000})
	if !s.log || s.lo != 10 || s.hi != 1e6 || len(ticks) != 6 {
		t.Errorf("50..120000: scale %+v ticks %v, want log 10..1e6", s, ticks)
	}
	if f := s.frac(1000); math.Abs(f-0.4) > 1e-9 {
		t.Errorf("log frac(1000) on 10..1e6 = %v, want 0.4", f)
	}
	// Zeros rule out a log scale, and all zeros still give a usable axis.
	if s, _ := chooseYScale([]float64{0, 50, 120000}); s.log {
		t.Error("log scale chosen with a zero value")
	}
	if s, ticks := chooseYScale([]float64{0, 0}); s.hi <= s.lo || len(ticks) < 2 {
		t.Errorf("all zeros: scale %+v ticks %v", s, ticks)
	}
	if s, _ := chooseYScale([]float64{math.NaN()}); s.hi <= s.lo {
		t.Errorf("NaN only: scale %+v", s)
	}
	for raw, want := range map[float64]float64{0.7: 1, 1: 1, 1.3: 2, 3: 5, 7: 10, 0.021: 0.05, 4500: 5000} {
		if got := niceStep(raw); math.Abs(got-want) > want*1e-9 {
			t.Errorf("niceStep(%v) = %v, want %v", raw, got, want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for _, c := range []struct {
		v    float64
		kind string
		want string
	}{
		{0, "ns", "0"},
		{250, "ns", "250ns"},
		{1500, "ns", "1.5µs"},
		{2.5e6, "ns", "2.5ms"},
		{3e9, "ns", "3s"},
		{0.0123, "count", "0.012"},
		{0.0004, "count", "0.0004"},
		{0.5, "count", "0.5"},
		{12.25, "count", "12.2"},
		{25000, "count", "25k"},
		{3e6, "count", "3M"},
	} {
		if got := formatValue(c.v, c.kind); got != c.want {
			t.Errorf("formatValue(%v, %s) = %q, want %q", c.v, c.kind, got, c.want)
		}
	}
}

// Five panels wrap into two rows of at most three; the title's second line
// is a caption; a whisker far past the medians is cut at the panel's edge.
func TestWriteSVGRowsAndCaption(t *testing.T) {
	pt := []Point{{X: 1, Y: 100, Lo: 1, Hi: 100000}, {X: 4, Y: 200, Lo: 190, Hi: 210}}
	var panels []Panel
	for i := 0; i < 5; i++ {
		panels = append(panels, Panel{Title: fmt.Sprintf("panel %d", i), Kind: "ns", Series: []Series{{Name: "spinbit", Points: pt}}})
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, "Handoff\ncommit abc on a machine", panels); err != nil {
		t.Fatal(err)
	}
	_, els := svgElements(t, buf.Bytes())
	top := titleH + captionH
	if w, h := attr(els[0], "width"), attr(els[0], "height"); w != strconv.Itoa(3*panelW) || h != strconv.Itoa(top+legendH+2*panelH) {
		t.Errorf("svg %sx%s, want %dx%d", w, h, 3*panelW, top+legendH+2*panelH)
	}
	if !strings.Contains(buf.String(), ">commit abc on a machine</text>") {
		t.Errorf("caption missing")
	}
	if !strings.Contains(buf.String(), fmt.Sprintf(`translate(%d,%d)`, panelW, top+legendH+panelH)) {
		t.Errorf("the fifth panel is not second in the second row")
	}
	// Medians 100 and 200 give a linear axis; the whisker from 1 to 100000
	// stays within the plot area.
	for _, e := range els {
		if e.Name.Local == "line" && attr(e, "stroke-opacity") == "0.5" {
			for _, a := range []string{"y1", "y2"} {
				y, _ := strconv.ParseFloat(attr(e, a), 64)
				if y < padTop || y > float64(panelH-padBottom) {
					t.Errorf("whisker %s = %v, outside the plot area %d..%d", a, y, padTop, panelH-padBottom)
				}
			}
		}
	}
	if strings.Contains(buf.String(), "log scale") {
		t.Errorf("a whisker chose a log scale")
	}
}
