package model

import (
	"strings"
	"testing"
)

const boundGo = `package runtime

// Bounded waiting
//
// What is bounded, exactly. From its heir event to its entry, at most
// one other M enters.
//
// What is not bounded: time.
`

func TestCheckBoundQuote(t *testing.T) {
	readme := func(quote string) string {
		return "# Model\n\n## The bound\n\nThe header states it:\n\n" + quote + "\n\nThe model checks it.\n\n## Checks\n\n> not this one\n"
	}
	for _, tc := range []struct {
		name, readme string
		wantErr      string // "" for none
	}{
		{"same words, other lines", readme("> From its heir event to its entry,\n> at most one other M enters."), ""},
		{"the whole paragraph", readme("> What is bounded, exactly. From its heir event to its entry, at most one other M enters."), ""},
		{"a word changed", readme("> From its heir event to its entry, at most two other Ms enter."), "do not state word for word"},
		{"across paragraphs", readme("> at most one other M enters. What is not bounded: time."), "do not state word for word"},
		{"no heading", "# Model\n\n> From its heir event to its entry\n", `no heading "## The bound"`},
		{"no quote", "# Model\n\n## The bound\n\nNone here.\n\n## Checks\n\n> From its heir event\n", "quotes nothing"},
	} {
		err := checkBoundQuote("README.md", tc.readme, "lock_spinbit.go", boundGo)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
		}
	}
}
