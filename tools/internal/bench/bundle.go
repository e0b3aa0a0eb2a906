package bench

import (
	"archive/tar"
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// A bundle is what runs the benchmarks on a machine without this
// repository: for one GOARCH, each toolchain's test binaries, a plan of
// what to run, and run.sh (runner.sh), a POSIX sh script that runs them
// interleaved and writes a run folder, which ReportRun turns into tables
// and plots. -bundle writes one spinbit-bench-<goarch>.tar.gz per GOARCH,
// with a .sha256 file beside it.

//go:embed runner.sh
var runnerScript []byte

// BundleGOARCHes are the architectures -bundle builds for by default.
var BundleGOARCHes = []string{"amd64", "arm64"}

// Files of a bundle and of a run folder.
const (
	bundleInfoFile = "bundle.json" // BundleInfo, copied into each run folder
	bundlePlanFile = "plan"        // "suite benchmark toolchain..." lines, copied into each run folder
	bundleConfFile = "bundle.conf" // sh assignments: goarch and run.sh's defaults
	bundleSumsFile = "SHA256SUMS"
	bundleRunner   = "run.sh"
)

// BundleInfo describes a bundle: for which GOARCH, built when and from
// what, and each suite's toolchains.
type BundleInfo struct {
	GOARCH     string        `json:"goarch"`
	Built      time.Time     `json:"built"`
	Provenance Provenance    `json:"provenance"`
	Suites     []BundleSuite `json:"suites"`
}

// BundleSuite is one suite of a bundle: its benchmarks, and the
// toolchains whose test binaries run them (bin/<suite>-<toolchain>.test).
type BundleSuite struct {
	Name       string            `json:"name"` // "bench" for bench/, "runtime"
	Benchmarks []string          `json:"benchmarks"`
	Toolchains []RecordToolchain `json:"toolchains"`
}

// recordSuite is the Record.Suite of a bundle suite's reports.
func (s BundleSuite) recordSuite() string {
	if s.Name == "bench" {
		return ""
	}
	return s.Name
}

func (s BundleSuite) toolchainNames() []string {
	var names []string
	for _, t := range s.Toolchains {
		names = append(names, t.Name)
	}
	return names
}

// bundleBinary is where a suite's test binary of a toolchain is in a
// bundle, slash-separated.
func bundleBinary(suite, toolchain string) string {
	return "bin/" + suite + "-" + toolchain + ".test"
}

// bundleName is the name of the bundle for goarch: of its top folder, and
// with .tar.gz of its archive.
func bundleName(goarch string) string { return "spinbit-bench-" + goarch }

// BuildBundles builds a bundle for each GOARCH into dir, which must be new
// or empty, and prints each archive's size.
// The fork's binaries are those of base.
func BuildBundles(ctx context.Context, root, base, dir string, goarches []string, stdout io.Writer) error {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return fmt.Errorf("-bundle %s already holds files; name a new or empty folder", dir)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	var tcs []*prepared
	for _, t := range Known {
		p, err := prepare(ctx, root, base, t)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "toolchain %-9s %s (GOROOT %s%s)\n", p.Name, p.Version, p.GOROOT, expNote(p.Experiment))
		tcs = append(tcs, p)
	}
	if warn := spinbitWarning(ctx, tcs); warn != "" {
		fmt.Fprintf(stdout, "warning: %s\n", warn)
	}
	specs, err := bundleSpecs(root, base, tcs, stdout)
	if err != nil {
		return err
	}
	prov := readProvenance(root, base, true)
	for _, p := range prov.Problems() {
		fmt.Fprintf(stdout, "warning: runs of these bundles cannot be published (./bench.bash -publish): %s\n", p)
	}
	for _, goarch := range goarches {
		info := BundleInfo{GOARCH: goarch, Built: time.Now().UTC(), Provenance: prov}
		stage := filepath.Join(dir, bundleName(goarch))
		for _, sp := range specs {
			bs, err := sp.build(ctx, stage, goarch, stdout)
			if err != nil {
				return err
			}
			info.Suites = append(info.Suites, bs)
		}
		if err := writeBundleFiles(stage, info); err != nil {
			return err
		}
		archive := filepath.Join(dir, bundleName(goarch)+".tar.gz")
		size, err := packBundle(stage, archive)
		if err != nil {
			return err
		}
		if err := os.RemoveAll(stage); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (%.1f MB) and %s.sha256\n", archive, float64(size)/1e6, filepath.Base(archive))
	}
	return nil
}

// bundleSpec is a suite of a bundle to build: the benchmarks, and the
// toolchains that build them, each with the package in PkgDir.
type bundleSpec struct {
	Name    string // BundleSuite.Name
	Pattern string // selects the benchmarks, for -test.list
	Names   []string
	TCs     []*prepared
}

// bundleSpecs are the suites of a bundle: bench/ with every toolchain,
// and the runtime's mutex benchmarks (what -runtime runs) with the fork,
// the experiment on and off (suite.leftOut).
func bundleSpecs(root, base string, tcs []*prepared, stdout io.Writer) ([]bundleSpec, error) {
	var specs []bundleSpec
	for _, s := range []suite{{Desc: "bench/", root: root, base: base}, {Name: "runtime", Desc: "the runtime's mutex benchmarks", root: root, base: base}} {
		sp := bundleSpec{Name: "bench", Pattern: "."}
		if s.Name != "" {
			sp.Name, sp.Pattern = s.Name, runtimeBench
		}
		names, err := s.plannedBenchmarks(sp.Pattern)
		if err != nil {
			return nil, err
		}
		sp.Names = names
		for _, p := range tcs {
			q := *p
			q.PkgDir = s.pkgDir(p.GOROOT)
			if why, err := s.leftOut(&q, sp.Pattern, names); err != nil {
				return nil, err
			} else if why != "" {
				fmt.Fprintf(stdout, "%s: %s left out: %s\n", sp.Name, p.Name, why)
				continue
			}
			sp.TCs = append(sp.TCs, &q)
		}
		specs = append(specs, sp)
	}
	return specs, nil
}

// build compiles the suite's test binaries for linux/goarch into stage,
// and where they run here checks that they list the planned benchmarks.
func (sp bundleSpec) build(ctx context.Context, stage, goarch string, stdout io.Writer) (BundleSuite, error) {
	bs := BundleSuite{Name: sp.Name, Benchmarks: sp.Names}
	for _, p := range sp.TCs {
		fmt.Fprintf(stdout, "building %s for linux/%s with %s...\n", sp.Name, goarch, p.Name)
		bin := filepath.Join(stage, filepath.FromSlash(bundleBinary(bs.Name, p.Name)))
		if err := compileFor(ctx, p, goarch, bin); err != nil {
			return bs, err
		}
		if goarch == runtime.GOARCH && runtime.GOOS == "linux" {
			q := *p
			q.Binary = bin
			listed, err := listBenchmarks(ctx, &q, sp.Pattern)
			if err != nil {
				return bs, err
			}
			if !equalStrings(listed, sp.Names) {
				return bs, fmt.Errorf("%s's test binary lists benchmarks %v, but the source of %s declares %v: is a benchmark behind a build tag?", p.Name, listed, p.PkgDir, sp.Names)
			}
		}
		bs.Toolchains = append(bs.Toolchains, RecordToolchain{Name: p.Name, Version: p.Version, Experiment: p.Experiment})
	}
	return bs, nil
}

// compileFor builds the test binary of p.PkgDir for linux/goarch, static
// (cgo off), into bin.
func compileFor(ctx context.Context, p *prepared, goarch, bin string) error {
	q := *p
	q.Env = append(slices.Clip(p.Env), "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0")
	return compileTo(ctx, &q, bin)
}

// writeBundleFiles writes into stage, which holds the test binaries
// already, everything else a bundle has: the plan, bundle.conf,
// bundle.json, run.sh and SHA256SUMS.
func writeBundleFiles(stage string, info BundleInfo) error {
	var plan strings.Builder
	for _, s := range info.Suites {
		for _, b := range s.Benchmarks {
			fmt.Fprintf(&plan, "%s %s %s\n", s.Name, b, strings.Join(s.toolchainNames(), " "))
		}
	}
	conf := fmt.Sprintf("goarch=%s\ndefault_benchtime=%s\ndefault_count=%d\n", info.GOARCH, fullBenchtime, fullCount)
	data, err := json.MarshalIndent(info, "", "\t")
	if err != nil {
		return err
	}
	files := []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{bundlePlanFile, []byte(plan.String()), 0o644},
		{bundleConfFile, []byte(conf), 0o644},
		{bundleInfoFile, append(data, '\n'), 0o644},
		{bundleRunner, runnerScript, 0o755},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(stage, f.name), f.data, f.mode); err != nil {
			return err
		}
	}
	return writeSums(stage)
}

// writeSums writes SHA256SUMS in stage, in sha256sum's format, for every
// other file in it.
func writeSums(stage string) error {
	var files []string
	err := filepath.WalkDir(stage, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(stage, p)
		if rel != bundleSumsFile {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		sum, err := fork.HashFile(filepath.Join(stage, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, f)
	}
	return os.WriteFile(filepath.Join(stage, bundleSumsFile), []byte(b.String()), 0o644)
}

// packBundle writes the folder stage as archive, a tar.gz whose one top
// folder is stage's name, and archive.sha256 beside it. It returns the
// archive's size. The small files come first, so that an archive cut
// short still unpacks run.sh and SHA256SUMS, and run.sh can say what is
// wrong.
func packBundle(stage, archive string) (int64, error) {
	var files []string
	err := filepath.WalkDir(stage, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(stage, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	binary := func(f string) bool { return strings.HasPrefix(f, "bin/") }
	sort.SliceStable(files, func(i, j int) bool {
		if binary(files[i]) != binary(files[j]) {
			return !binary(files[i])
		}
		return files[i] < files[j]
	})
	f, err := os.Create(archive)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	tw := tar.NewWriter(zw)
	top := filepath.Base(stage)
	dirs := map[string]bool{}
	add := func(rel string) error {
		if dir := path.Dir(rel); dir != "." && !dirs[dir] {
			dirs[dir] = true
			hdr := &tar.Header{Typeflag: tar.TypeDir, Name: top + "/" + dir + "/", Mode: 0o755, ModTime: time.Now()}
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
		}
		src, err := os.Open(filepath.Join(stage, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		defer src.Close()
		fi, err := src.Stat()
		if err != nil {
			return err
		}
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: top + "/" + rel, Mode: int64(fi.Mode().Perm()), Size: fi.Size(), ModTime: fi.ModTime()}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err = io.Copy(tw, src)
		return err
	}
	err = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top + "/", Mode: 0o755, ModTime: time.Now()})
	for _, rel := range files {
		if err != nil {
			break
		}
		err = add(rel)
	}
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return 0, fmt.Errorf("writing %s: %v", archive, err)
	}
	sum, err := fork.HashFile(archive)
	if err != nil {
		return 0, err
	}
	line := fmt.Sprintf("%s  %s\n", sum, filepath.Base(archive))
	if err := os.WriteFile(archive+".sha256", []byte(line), 0o644); err != nil {
		return 0, err
	}
	st, err := os.Stat(archive)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
