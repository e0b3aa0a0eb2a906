package toolchain

import "testing"

func TestAtLeast(t *testing.T) {
	for _, c := range []struct {
		v, min string
		want   bool
	}{
		{"go1.26.8", "1.20.6", true},
		{"go1.20.6", "1.20.6", true},
		{"go1.20.5", "1.20.6", false},
		{"go1.20", "1.20.6", false},
		{"go1.21rc2", "1.20.6", true},
		{"go1.21rc2", "1.21.0", false},
		{"go1.19.13", "1.20.6", false},
		{"go1.23.12-spinbit", "1.23.12", true},
		{"go1.23.12 X:nospinbitmutex", "1.23.13", false},
		{"devel go1.27-abcdef Mon Jan 1", "1.20.6", true},
		{"go2", "1.20.6", false},
		{"", "1.20.6", false},
	} {
		if got := AtLeast(c.v, c.min); got != c.want {
			t.Errorf("AtLeast(%q, %q) = %v, want %v", c.v, c.min, got, c.want)
		}
	}
}

func TestModuleVersion(t *testing.T) {
	if got := ModuleVersion("go1.23.12-spinbit", "darwin-arm64"); got != "v0.0.1-go1.23.12-spinbit.darwin-arm64" {
		t.Errorf("ModuleVersion = %q", got)
	}
}
