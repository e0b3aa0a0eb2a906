package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/toolchain"
)

// parseFlags parses args into fs, the flags of the subcommand fs.Name(),
// which takes no other arguments: a word left over is refused like a bad
// flag, with exit status 2, before anything is done.
func parseFlags(fs *flag.FlagSet, args []string, root string) {
	fs.Parse(args)
	if fs.NArg() == 0 {
		return
	}
	base, err := fork.Newest(root)
	if err != nil {
		base = "RELEASE"
	}
	fmt.Fprintf(os.Stderr, "fork: %v\n", noArgs(fs.Name(), fs.Args(), base))
	os.Exit(2)
}

// script is what a user runs for the subcommand cmd.
func script(cmd string) string {
	switch cmd {
	case "make":
		return "./make.bash"
	case "test":
		return "./test.bash"
	}
	return "tools/patch.bash " + cmd
}

// plainWord matches an argument that can be shown as a flag's value
// without quoting.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9._/-]+$`)

// noArgs refuses the words left after the flags of the subcommand cmd,
// which takes flags only: the flag package stops at the first word, so
// anything after it, flags included, would be ignored. base is a release
// to show in the fix (the newest base) when no word names one.
func noArgs(cmd string, left []string, base string) error {
	if len(left) == 0 {
		return nil
	}
	var quoted, flags []string
	for _, a := range left {
		quoted = append(quoted, fmt.Sprintf("%q", a))
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
		}
	}
	word := left[0]
	_, release := toolchain.ParsePointRelease(word)
	if release {
		base = word
	}
	var fix string
	switch {
	case cmd == "port" && release:
		fix = "name the new release with -to " + word
	case cmd == "port":
		fix = "name the new release with -to, such as -to go1.28.1"
	case cmd == "test" && !release && plainWord.MatchString(word):
		fix = fmt.Sprintf("choose steps with -run %s, or a base with -base %s", word, base)
	default:
		fix = "name a base with -base " + base
	}
	if len(flags) > 0 {
		return fmt.Errorf("%s takes no arguments, but got %s: flags after a word are not read (%s here), so put every flag before any other word, and %s",
			script(cmd), strings.Join(quoted, " "), strings.Join(flags, " "), fix)
	}
	return fmt.Errorf("%s takes no arguments, but got %s: %s (flags must come before any other word)", script(cmd), strings.Join(quoted, " "), fix)
}
