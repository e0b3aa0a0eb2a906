// Package tail cuts a program's output down to its last lines, which is
// where a failure usually says what went wrong.
package tail

import "strings"

// Lines returns the last n lines of s.
func Lines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
