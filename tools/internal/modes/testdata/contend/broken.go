//go:build contendbroken

package main

// A deliberately wrong count, for the tests of the checker that runs this
// program: built with -tags contendbroken it reports one step too many.
func init() { locked++ }
