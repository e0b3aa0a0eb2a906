package model

import (
	"regexp"
	"sort"
	"strings"
)

// A feature is a part of the protocol that only some series have. The
// model puts its steps under #ifdef of the feature's define, and a Go tree
// has the feature when its quoted files declare the feature's function.
// On a tree with the feature, every check of the suite defines it, and its
// mutants run; on a tree without it, its steps are left out, and so are
// their quotes, which name a function that tree does not have.
type feature struct {
	define string // the model's macro
	fn     string // the Go function whose presence marks the feature
}

// features lists the features of the protocol: the sampled unlock
// (unlock2Sampled, which releases l with a CAS that takes the stack lock,
// and which the go1.27 series has and the go1.23 series has not).
var features = []feature{
	{define: "SAMPLE", fn: "unlock2Sampled"},
}

// treeFeatures returns the defines of the features whose functions are
// among bodies (funcBodies' map), sorted.
func treeFeatures(bodies map[string]string) []string {
	var on []string
	for _, f := range features {
		if _, ok := bodies[f.fn]; ok {
			on = append(on, f.define)
		}
	}
	sort.Strings(on)
	return on
}

var conditional = regexp.MustCompile(`^\s*#\s*(ifdef|ifndef|if|else|endif)\b\s*(\w*)`)

// activeModel returns model with every line blanked that the C
// preprocessor would leave out given which features are on: the lines
// under #ifdef F of a feature F that is off, or under #ifndef F (or the
// #else of #ifdef F) of one that is on. Other conditionals are kept, with
// all their branches; the lines keep their numbers.
func activeModel(model string, on []string) string {
	isOn := map[string]bool{}
	for _, d := range on {
		isOn[d] = true
	}
	isFeature := map[string]bool{}
	for _, f := range features {
		isFeature[f.define] = true
	}
	// frames: one per open conditional; a feature's frame says whether
	// the branch it is in is taken, any other's is always taken.
	type frame struct {
		feature bool
		taken   bool
	}
	var frames []frame
	taken := func() bool {
		for _, f := range frames {
			if !f.taken {
				return false
			}
		}
		return true
	}
	lines := strings.Split(model, "\n")
	for i, l := range lines {
		m := conditional.FindStringSubmatch(l)
		if m == nil {
			if !taken() {
				lines[i] = ""
			}
			continue
		}
		keep := taken()
		switch m[1] {
		case "ifdef", "ifndef":
			if isFeature[m[2]] {
				frames = append(frames, frame{feature: true, taken: isOn[m[2]] == (m[1] == "ifdef")})
				keep = false
			} else {
				frames = append(frames, frame{taken: true})
			}
		case "if":
			frames = append(frames, frame{taken: true})
		case "else":
			if n := len(frames); n > 0 && frames[n-1].feature {
				frames[n-1].taken = !frames[n-1].taken
				keep = false
			}
		case "endif":
			if n := len(frames); n > 0 {
				if frames[n-1].feature {
					keep = false
				}
				frames = frames[:n-1]
			}
		}
		if !keep {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
