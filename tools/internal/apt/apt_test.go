package apt

import (
	"context"
	"io"
	"reflect"
	"testing"
)

func TestCommands(t *testing.T) {
	got := commands([]string{"spin", "gcc"})
	want := [][]string{
		{"apt-get", "update"},
		{"apt-get", "install", "-y", "--no-install-recommends", "spin", "gcc"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands = %q; want %q", got, want)
	}
}

func TestInstallNothing(t *testing.T) {
	if err := Install(context.Background(), io.Discard, io.Discard); err == nil {
		t.Error("Install with no packages = nil; want an error")
	}
}
