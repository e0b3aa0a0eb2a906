package main

import (
	"strings"
	"testing"
)

func TestHasDirective(t *testing.T) {
	src := "package runtime\n\n// f does.\n//\n//go:nosplit\n//go:nowritebarrierrec\nfunc f(x int) {\n}\n\n//go:nosplit\nfunc g() {\n}\n"
	if !hasDirective(src, "f", noWriteBarrierRec) {
		t.Errorf("f is marked, but hasDirective says not")
	}
	if hasDirective(src, "g", noWriteBarrierRec) {
		t.Errorf("g is not marked, but hasDirective says it is")
	}
	if hasDirective(src, "h", noWriteBarrierRec) {
		t.Errorf("h is not declared, but hasDirective says it is marked")
	}
}

func TestAddPointerWrite(t *testing.T) {
	src := "package runtime\n\nfunc mutexPushed(v uintptr, mp *m, giveUpSpin bool) uintptr {\n\tb := 1\n}\n"
	got, err := addPointerWrite(src, "mutexPushed")
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n\tgetg().m.waitunlockf = nil\n\tb := 1\n"
	if !strings.Contains(got, want) {
		t.Errorf("addPointerWrite wrote\n%s\nwant the body to start with the pointer write", got)
	}
	if _, err := addPointerWrite(src, "mutexHandOff"); err == nil {
		t.Errorf("addPointerWrite of a function the file lacks: no error")
	}
}
