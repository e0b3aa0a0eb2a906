// Command fork lays out, patches, builds and checks the fork's Go trees,
// one per base (bases/<release>: its UPSTREAM pin and patches/), each in
// goroot/<release>.
//
//	fork make [-base R] [-force] [-distpack [-host]]  obtain each base (or R), apply its patches/,
//	                       build goroot/<release>/bin/go; with -distpack also write the archives of
//	                       every platform to dist/<release>/ (with -host, of the host only); then say
//	                       whether upstream has a newer point release of the newest base (steps_release.go)
//	fork apply [-base R] [-discard]  obtain the base and apply its patches/, without building
//	fork extract [-base R] rewrite bases/<release>/patches/ from goroot/<release>'s commits after tag named
//	fork check [-base R]   fail if a laid-out tree and its patches/ disagree
//	fork test [-base R] [-run re] [-list] [-short] [-long]  run the fork's checks (see steps.go)
//	fork port -to R [-from R]  start a base of release R from the series of another (port.go)
//
// Without -base, make and test take every base that has patches/, check
// every base whose tree is laid out, and apply and extract the one base
// whose tree is laid out. The repository root is found from the working
// directory. Every command but step takes flags only, and refuses any
// other word (args.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage: fork make [-base R] [-force] [-distpack [-host]] | apply [-base R] [-discard] | extract [-base R] | check [-base R] | test [-base R] [-run regexp] [-list] [-short] [-long] | port -to R [-from R]\n")
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	wd, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	root, err := fork.FindRoot(wd)
	if err != nil {
		fatal(fmt.Errorf("%v: run from inside a go-spinbit checkout", err))
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	base := fs.String("base", "", "the base to work on, a release with a folder in bases/ (see the command's default)")
	switch cmd {
	case "make":
		force := fs.Bool("force", false, "run src/make.bash even if bin/go (and dist/<release>/, with -distpack) is up to date")
		distpack := fs.Bool("distpack", false, "also write the host's and "+targets()+" archives, module files and SHA256SUMS to dist/<release>/")
		host := fs.Bool("host", false, "with -distpack: the host's archive and module files only, with no cross build (for use on this machine)")
		parseFlags(fs, args, root)
		if *host && !*distpack {
			fatal(fmt.Errorf("-host says which archives -distpack makes: use -distpack -host, or leave -host out"))
		}
		bases, err := selectBases(root, *base)
		if err != nil {
			fatal(err)
		}
		if err := fork.MakeBases(ctx, root, bases, *force, logf); err != nil {
			fatal(err)
		}
		if *distpack {
			for _, b := range bases {
				if err := (fork.Repo{Root: root, Base: b}).Distpack(ctx, *force, *host, logf); err != nil {
					fatal(err)
				}
			}
		}
		reportPointRelease(ctx, root, bases, logf)
	case "apply":
		discard := fs.Bool("discard", false, "throw away the tree's work that patches/ lacks")
		parseFlags(fs, args, root)
		r, err := oneBase(root, *base, "apply")
		if err != nil {
			fatal(err)
		}
		if err := r.Prepare(ctx, *discard, logf); err != nil {
			fatal(err)
		}
		logf("goroot/%s holds upstream plus bases/%s/patches/", r.Base, r.Base)
	case "extract":
		parseFlags(fs, args, root)
		r, err := oneBase(root, *base, "extract")
		if err != nil {
			fatal(err)
		}
		s, err := r.ExtractTo()
		if err != nil {
			fatal(err)
		}
		logf("wrote %d patches to bases/%s/patches/", len(s), r.Base)
	case "check":
		parseFlags(fs, args, root)
		if err := check(root, *base); err != nil {
			fatal(err)
		}
	case "test":
		run := fs.String("run", "", "run only the steps whose full names (such as go1.23.12/runtime/test-short) match this regexp")
		list := fs.Bool("list", false, "list the steps that would run and exit")
		short := fs.Bool("short", false, "leave out the slow steps, for iterating")
		long := fs.Bool("long", false, "also run the long steps (dist/: a toolchain build per platform), and every step on the bases older than the newest")
		parseFlags(fs, args, root)
		os.Exit(runSteps(ctx, root, *base, *run, *list, *short, *long))
	case "port":
		to := fs.String("to", "", "the release of the new base, such as go1.28.1")
		from := fs.String("from", "", "the base whose series to port (default: the newest base with patches/)")
		parseFlags(fs, args, root)
		if *base != "" {
			fatal(fmt.Errorf("port takes -from and -to, not -base"))
		}
		os.Exit(port(ctx, root, *from, *to))
	case "step":
		// Used by "test" to run each step in a process of its own.
		result := fs.String("result", "", "where to write why the step failed or was skipped")
		fs.Parse(args)
		if fs.NArg() != 1 || *result == "" {
			fatal(fmt.Errorf("usage: fork step [-base R] -result FILE NAME"))
		}
		os.Exit(runOneStep(ctx, fork.Repo{Root: root, Base: *base}, fs.Arg(0), *result))
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
