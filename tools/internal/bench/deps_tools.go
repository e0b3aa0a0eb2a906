//go:build tools

package bench

// The runner builds benchstat from this module's requirements (see
// buildBenchstat); this import keeps go mod tidy from dropping them.
import _ "golang.org/x/perf/cmd/benchstat"
