package tail

import "testing"

func TestLines(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc"},
		{"a\nb\nc", 5, "a\nb\nc"},
		{"", 3, ""},
	} {
		if got := Lines(c.s, c.n); got != c.want {
			t.Errorf("Lines(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
