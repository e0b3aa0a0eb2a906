package main

// modelSteps check the Promela model of lock_spinbit.go with Spin.
var modelSteps = []step{}
