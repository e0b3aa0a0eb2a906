package main

import (
	"fmt"
	"os"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
)

// selectBases returns the bases a command that can work on several takes:
// the one named, or every base with patches/ (saying which it skips).
func selectBases(root, base string) ([]string, error) {
	if base != "" {
		if err := fork.CheckBase(root, base); err != nil {
			return nil, err
		}
		return []string{base}, nil
	}
	return fork.Bases(root, func(b string) {
		logf("skipping base %s: bases/%s has no patches/ yet", b, b)
	})
}

// laidOut returns those of bases whose tree is laid out.
func laidOut(root string, bases []string) ([]string, error) {
	var out []string
	for _, b := range bases {
		ok, err := fork.Repo{Root: root, Base: b}.Exists()
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, b)
		}
	}
	return out, nil
}

// oneBase returns the base that apply and extract work on: the one named,
// or else the only base whose tree is laid out, or else the only base.
// Anything else is ambiguous, and the error lists the choices.
func oneBase(root, base, verb string) (fork.Repo, error) {
	if base != "" {
		err := fork.CheckBase(root, base)
		return fork.Repo{Root: root, Base: base}, err
	}
	bases, err := fork.Bases(root, nil)
	if err != nil {
		return fork.Repo{}, err
	}
	trees, err := laidOut(root, bases)
	if err != nil {
		return fork.Repo{}, err
	}
	switch {
	case len(trees) == 1:
		return fork.Repo{Root: root, Base: trees[0]}, nil
	case len(trees) > 1:
		return fork.Repo{}, fmt.Errorf("%s works on one base and %d have a tree in goroot/ (%s): name one with -base", verb, len(trees), strings.Join(trees, ", "))
	case len(bases) == 1:
		return fork.Repo{Root: root, Base: bases[0]}, nil
	}
	return fork.Repo{}, fmt.Errorf("%s works on one base and there are %d (%s): name one with -base", verb, len(bases), strings.Join(bases, ", "))
}

// check compares the tree of the base named, or of every base whose tree
// is laid out, with its patches/, and fails naming each that disagrees.
func check(root, base string) error {
	bases := []string{base}
	if base == "" {
		all, err := fork.Bases(root, nil)
		if err != nil {
			return err
		}
		if bases, err = laidOut(root, all); err != nil {
			return err
		}
		if len(bases) == 0 {
			logf("no base has a tree in goroot/: nothing to check")
			return nil
		}
	} else if err := fork.CheckBase(root, base); err != nil {
		return err
	}
	var bad []string
	for _, b := range bases {
		r := fork.Repo{Root: root, Base: b}
		if ok, err := r.Exists(); err != nil {
			return err
		} else if !ok {
			logf("goroot/%s is not laid out: nothing to check", b)
			continue
		}
		st, err := r.Status()
		if err != nil {
			return err
		}
		if !st.InSync() {
			fmt.Fprintf(os.Stderr, "fork: %s\n", st.Problem())
			bad = append(bad, b)
			continue
		}
		logf("goroot/%s and bases/%s/patches/ agree", b, b)
	}
	if len(bad) > 0 {
		return fmt.Errorf("trees and patches/ disagree for %s", strings.Join(bad, ", "))
	}
	return nil
}
