package main

// xchg8Steps check internal/runtime/atomic.Xchg8: behaviour, the compiler
// intrinsic, and execution on other architectures.
var xchg8Steps = []step{}
