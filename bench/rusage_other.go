//go:build !linux

package bench

// readUsage reports no usage outside Linux, so the benchmarks report only
// what the testing package measures itself.
func readUsage() (usage, bool) { return usage{}, false }
