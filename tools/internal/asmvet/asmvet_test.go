package asmvet

import (
	"context"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// An amd64 Xchg8 in the style of the fork's, between two other functions.
const sample = `#include "textflag.h"

TEXT ·Xchg(SB), NOSPLIT, $0-20
	JMP	·other(SB)

// uint8 Xchg8(ptr *uint8, new uint8)
TEXT ·Xchg8(SB), NOSPLIT, $0-17
	MOVQ	ptr+0(FP), BX
	MOVB	new+8(FP), AX
	XCHGB	AX, 0(BX)
	MOVB	AX, ret+16(FP)
	RET
TEXT ·Xchg64(SB), NOSPLIT, $0-24
	RET
`

func TestExtract(t *testing.T) {
	got, err := Extract(sample)
	if err != nil {
		t.Fatal(err)
	}
	want := "TEXT ·Xchg8(SB), NOSPLIT, $0-17\n\tMOVQ\tptr+0(FP), BX\n\tMOVB\tnew+8(FP), AX\n\tXCHGB\tAX, 0(BX)\n\tMOVB\tAX, ret+16(FP)\n\tRET\n"
	if got != want {
		t.Errorf("Extract =\n%s\nwant\n%s", got, want)
	}
	if _, err := Extract("TEXT ·Xchg8x(SB), NOSPLIT, $0-17\n"); err == nil {
		t.Error("Extract found Xchg8 in Xchg8x")
	}
}

func TestLinuxArches(t *testing.T) {
	got := linuxArches("aix/ppc64\nlinux/s390x\nlinux/386\nwindows/amd64\nlinux/amd64\n")
	if want := []string{"386", "amd64", "s390x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("linuxArches = %q, want %q", got, want)
	}
}

// The probe with the go command on PATH: vet passes the block with its
// declaration and rejects it with a misnamed parameter.
func TestProbeWithHostGo(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	g := Go{Path: gocmd, Env: append(os.Environ(), "GOTOOLCHAIN=local")}
	block, err := Extract(sample)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"GOOS=linux", "GOARCH=amd64"}
	dir := t.TempDir()
	if err := writeProbe(dir, block, Decl); err != nil {
		t.Fatal(err)
	}
	if _, err := g.output(context.Background(), dir, env, "vet", "."); err != nil {
		t.Fatalf("the right declaration: %v", err)
	}
	if err := writeProbe(dir, block, misnamed); err != nil {
		t.Fatal(err)
	}
	out, err := g.output(context.Background(), dir, env, "vet", ".")
	if err == nil || !strings.Contains(out, "Xchg8") {
		t.Fatalf("the misnamed declaration: err %v, output %s", err, out)
	}
}
