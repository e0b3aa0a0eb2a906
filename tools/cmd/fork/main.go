// Command fork lays out, patches, builds and checks the fork's Go tree.
//
//	fork make [-force] [-distpack [-host]]  obtain the base, apply patches/, build goroot/bin/go;
//	                       with -distpack also write the archives of every platform to dist/
//	                       (with -host, of the host only)
//	fork apply [-discard]  obtain the base and apply patches/, without building
//	fork extract           rewrite patches/ from goroot/'s commits after upstream
//	fork check             fail if goroot/ and patches/ disagree
//	fork test [-run re] [-list] [-short] [-long]  run the fork's checks (see steps.go)
//
// The repository root is found from the working directory.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage: fork make [-force] [-distpack [-host]] | apply [-discard] | extract | check | test [-run regexp] [-list] [-short] [-long]\n")
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root, err := repoRoot()
	if err != nil {
		fatal(err)
	}
	r := fork.Repo{Root: root}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	switch cmd {
	case "make":
		force := fs.Bool("force", false, "run src/make.bash even if goroot/bin/go (and dist/, with -distpack) is up to date")
		distpack := fs.Bool("distpack", false, "also write the host's and "+targets()+" archives, module files and SHA256SUMS to dist/")
		host := fs.Bool("host", false, "with -distpack: the host's archive and module files only, with no cross build (for use on this machine)")
		fs.Parse(args)
		if *host && !*distpack {
			fatal(fmt.Errorf("-host says which archives -distpack makes: use -distpack -host, or leave -host out"))
		}
		if err := r.Make(ctx, *force, logf); err != nil {
			fatal(err)
		}
		if *distpack {
			if err := r.Distpack(ctx, *force, *host, logf); err != nil {
				fatal(err)
			}
		}
	case "apply":
		discard := fs.Bool("discard", false, "throw away goroot/ work that patches/ lacks")
		fs.Parse(args)
		if err := r.Prepare(ctx, *discard, logf); err != nil {
			fatal(err)
		}
		logf("goroot/ holds upstream plus patches/")
	case "extract":
		fs.Parse(args)
		s, err := r.ExtractTo()
		if err != nil {
			fatal(err)
		}
		logf("wrote %d patches to patches/", len(s))
	case "check":
		fs.Parse(args)
		if ok, err := r.Exists(); err != nil {
			fatal(err)
		} else if !ok {
			logf("no goroot/: nothing to check")
			return
		}
		st, err := r.Status()
		if err != nil {
			fatal(err)
		}
		if !st.InSync() {
			fatal(fmt.Errorf("%s", st.Problem()))
		}
		logf("goroot/ and patches/ agree")
	case "test":
		run := fs.String("run", "", "run only the steps whose names match this regexp")
		list := fs.Bool("list", false, "list the steps and exit")
		short := fs.Bool("short", false, "leave out the slow steps, for iterating")
		long := fs.Bool("long", false, "also run the long steps (dist/: a toolchain build per platform)")
		fs.Parse(args)
		os.Exit(runSteps(ctx, r, *run, *list, *short, *long))
	case "step":
		// Used by "test" to run each step in a process of its own.
		result := fs.String("result", "", "where to write why the step failed or was skipped")
		fs.Parse(args)
		if fs.NArg() != 1 || *result == "" {
			fatal(fmt.Errorf("usage: fork step -result FILE NAME"))
		}
		os.Exit(runOneStep(ctx, r, fs.Arg(0), *result))
	default:
		usage()
	}
}

func targets() string {
	var s []string
	for _, p := range fork.DistTargets {
		s = append(s, p.String())
	}
	return strings.Join(s, ", ")
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "fork: "+format+"\n", args...)
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "fork: %v\n", err)
	os.Exit(1)
}

// repoRoot finds the directory holding UPSTREAM, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "UPSTREAM")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no UPSTREAM file in %s or above: run from inside a go-spinbit checkout", dir)
		}
	}
}
