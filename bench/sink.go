package bench

import "sync/atomic"

// sink receives results that must not be optimised away.
var sink atomic.Uint64
