package fork

import (
	"os"
	"path/filepath"
	"testing"
)

// gitDir finds a tree's git directory whether .git is one, or a file that
// points to one (git worktree add).
func TestGitDir(t *testing.T) {
	root := t.TempDir()
	plain := filepath.Join(root, "plain")
	if err := os.MkdirAll(filepath.Join(plain, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := gitDir(plain), filepath.Join(plain, ".git"); got != want {
		t.Errorf("gitDir of a tree with a .git directory = %s, want %s", got, want)
	}
	linked := filepath.Join(root, "linked")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	for gitdir, want := range map[string]string{
		"/elsewhere/.git/worktrees/linked": "/elsewhere/.git/worktrees/linked",
		"../plain/.git/worktrees/linked":   filepath.Join(root, "plain", ".git", "worktrees", "linked"),
	} {
		if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := gitDir(linked); got != want {
			t.Errorf("gitDir of a tree whose .git says %q = %s, want %s", gitdir, got, want)
		}
	}
}
