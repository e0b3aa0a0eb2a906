//go:build tools

package wasm

// Check builds wazero from this module's requirements (see buildWazero);
// this import keeps go mod tidy from dropping them. The version is v1.9.0:
// v1.10 asks for Go 1.23, above the tools' minimum, and under v1.8.2
// go1.27's wasip1 programs die in malloc, upstream's as the fork's.
import _ "github.com/tetratelabs/wazero/cmd/wazero"
