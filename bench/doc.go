// Package bench holds benchmarks that each lean on one of the Go runtime's
// internal locks (runtime.mutex, taken by runtime.lock2 and released by
// runtime.unlock2): channel locks, the semaphore table, timer heaps, the
// scheduler lock and the heap lock. They are meant to be run with
// -cpu 1,2,4,8,16,32 on a machine with fewer cores than that, because the
// interesting behaviour of a mutex shows when more threads want it than
// can run at once.
//
// Every benchmark reports, besides sec/op, the operating system's view of
// what the process did per operation: voluntary and involuntary context
// switches (vcsw/op, ivcsw/op) and CPU time (cpu-ns/op). The benchmarks
// that measure how long one acquisition waits also report latency
// percentiles (p50-ns, p99-ns, max-ns), and after all results, one line
// per sample holding its whole latency histogram ("histogram BenchmarkX-N
// b.N sub=5 max=... counts=bucket:count,..."), from which the tools
// compute tail latencies over the samples of many runs.
//
// The non-test files hold the helpers the benchmarks share; they use only
// public APIs so that every Go release since 1.23 and the go-spinbit fork
// can build them.
package bench
