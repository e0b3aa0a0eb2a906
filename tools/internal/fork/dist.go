package fork

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// DistTargets are the platforms that Distpack cross-builds besides the host.
var DistTargets = []Platform{
	{"linux", "arm64"},
	{"darwin", "amd64"},
	{"darwin", "arm64"},
	{"windows", "amd64"},
}

// DistDir is where Distpack leaves the base's files, dist/<Base> (ignored
// by git).
func (r Repo) DistDir() string { return filepath.Join(r.Root, "dist", r.Base) }

// ProxyDir is the file-system module proxy inside DistDir, for
// GOPROXY=file://<ProxyDir>.
func (r Repo) ProxyDir() string { return filepath.Join(r.DistDir(), "proxy") }

// SumsFile names the file of SHA-256 sums in DistDir, in the format of
// sha256sum, so that `sha256sum -c SHA256SUMS` checks the files.
const SumsFile = "SHA256SUMS"

// distStamp records, in DistDir, the base's tree the files were made from,
// and whether they are the host's only (see distStampText).
const distStamp = "STAMP"

// distStampText is the content of distStamp for files made from the tree
// whose build stamp is build, for every platform or for the host only.
func distStampText(build string, hostOnly bool) string {
	if hostOnly {
		return build + "host only\n"
	}
	return build
}

// stampSatisfies reports whether dist/ with the stamp old serves a request
// for the files of build, for the host only or for every platform: every
// platform's files serve both requests, the host's only serve only theirs.
func stampSatisfies(old, build string, hostOnly bool) bool {
	return old == distStampText(build, false) || hostOnly && old == distStampText(build, true)
}

// distPlatforms is what Distpack makes: the host only, or DistPlatforms.
func distPlatforms(host Platform, hostOnly bool) []Platform {
	if hostOnly {
		return []Platform{host}
	}
	return DistPlatforms(host)
}

// DistPlatforms is the host followed by the DistTargets that are not it.
func DistPlatforms(host Platform) []Platform {
	ps := []Platform{host}
	for _, p := range DistTargets {
		if p != host {
			ps = append(ps, p)
		}
	}
	return ps
}

// ArchiveName is the name cmd/distpack gives the binary archive of version
// for p: a zip for windows, a gzipped tar elsewhere.
func ArchiveName(version string, p Platform) string {
	if p.GOOS == "windows" {
		return version + "." + p.Dash() + ".zip"
	}
	return version + "." + p.Dash() + ".tar.gz"
}

// ModuleDir is where the toolchain module's files sit in a module proxy.
const ModuleDir = "proxy/golang.org/toolchain/@v"

// DistFiles lists the files Distpack leaves in DistDir for version, made
// on host, relative to DistDir, sorted. SumsFile and distStamp are not in
// it.
func DistFiles(version string, host Platform) []string {
	return distFilesOf(version, DistPlatforms(host))
}

// distFilesOf lists the files of DistDir for version and the platforms ps,
// as DistFiles does for every platform.
func distFilesOf(version string, ps []Platform) []string {
	files := []string{version + ".src.tar.gz", ModuleDir + "/list"}
	for _, p := range ps {
		mv := toolchain.ModuleVersion(version, p.Dash())
		files = append(files, ArchiveName(version, p),
			ModuleDir+"/"+mv+".info", ModuleDir+"/"+mv+".mod", ModuleDir+"/"+mv+".zip")
	}
	sort.Strings(files)
	return files
}

// DistUpToDate reports whether DistDir holds the files of every platform,
// made from the tree that the base's bin/go was built from.
func (r Repo) DistUpToDate() bool { return r.distUpToDate(false) }

// distUpToDate is DistUpToDate, or with hostOnly whether DistDir holds at
// least the host's files of that tree.
func (r Repo) distUpToDate(hostOnly bool) bool {
	stamp, err := r.buildStamp()
	if err != nil || !r.UpToDate() {
		return false
	}
	old, err := os.ReadFile(filepath.Join(r.DistDir(), distStamp))
	return err == nil && stampSatisfies(string(old), stamp, hostOnly)
}

// Distpack runs Go's cmd/distpack for the host (on goroot/<Base> as built)
// and for each of DistTargets (cross-made with src/make.bash -distpack in a
// copy of the tree's HEAD, a full build each) and gathers
// the binary archives, the source archive and the toolchain module files
// into DistDir: the archives at its top, the module files laid out as a
// module proxy under proxy/, and SHA256SUMS over all of them. The tree must
// hold exactly the base's patches/, built (see Build). With hostOnly it makes the
// host's files only, with no cross build, for local use. It does nothing if
// DistDir already holds what is asked for, made from the same tree, unless
// force is set.
func (r Repo) Distpack(ctx context.Context, force, hostOnly bool, logf func(string, ...any)) error {
	if err := CheckBuildEnv(os.Getenv); err != nil {
		return err
	}
	if p := r.BuildProblem(); p != "" {
		return fmt.Errorf("cannot distpack: %s", p)
	}
	if _, err := os.Stat(filepath.Join(r.Goroot(), "src", "_go.mod")); err == nil {
		return fmt.Errorf("cannot distpack: %s holds the toolchain module's _go.mod files, which an older ./make.bash laid out; "+
			"the archives would hold them twice: move it away and run ./make.bash -base %s again", r.rel(r.Goroot()), r.Base)
	}
	if !force && r.distUpToDate(hostOnly) {
		logf("%s is up to date", r.rel(r.DistDir()))
		return nil
	}
	stamp, err := r.buildStamp()
	if err != nil {
		return err
	}
	version, err := r.Version()
	if err != nil {
		return err
	}
	tmp := r.DistDir() + ".partial"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(tmp, ModuleDir), 0o755); err != nil {
		return err
	}
	host := Host()
	platforms := distPlatforms(host, hostOnly)
	files := distFilesOf(version, platforms)
	if err := r.distpackHost(ctx, logf); err != nil {
		return err
	}
	if err := collect(filepath.Join(r.Goroot(), "pkg", "distpack"), tmp, version); err != nil {
		return fmt.Errorf("distpack for %s: %v", host, err)
	}
	// Cross-make in a copy of the tree's HEAD, so that the tree stays
	// usable meanwhile and gains no other platform's files. Its source
	// archive must come out the same as the tree's.
	work := r.DistDir() + ".work"
	defer os.RemoveAll(work)
	for _, p := range platforms[1:] {
		if err := r.exportHead(ctx, work); err != nil {
			return err
		}
		if err := r.makeBash(ctx, work, p, true, logf); err != nil {
			return err
		}
		if err := collect(filepath.Join(work, "pkg", "distpack"), tmp, version); err != nil {
			return fmt.Errorf("distpack for %s: %v", p, err)
		}
	}
	var versions []string
	for _, p := range platforms {
		versions = append(versions, toolchain.ModuleVersion(version, p.Dash()))
	}
	sort.Strings(versions)
	if err := os.WriteFile(filepath.Join(tmp, ModuleDir, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if err := CheckDistFiles(tmp, files); err != nil {
		return err
	}
	sums, err := SumFiles(tmp, files)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, SumsFile), sums, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, distStamp), []byte(distStampText(stamp, hostOnly)), 0o644); err != nil {
		return err
	}
	if err := os.RemoveAll(r.DistDir()); err != nil {
		return err
	}
	if err := os.Rename(tmp, r.DistDir()); err != nil {
		return err
	}
	logf("wrote %d files and %s to %s", len(files), SumsFile, r.rel(r.DistDir()))
	return nil
}

// distpackHost runs cmd/distpack on the tree as built for the host, which is
// the last step of src/make.bash -distpack, without building it all again.
func (r Repo) distpackHost(ctx context.Context, logf func(string, ...any)) error {
	bin, err := os.MkdirTemp("", "distpack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bin)
	tool := filepath.Join(bin, "distpack")
	env := append(buildEnv(os.Environ()), "GOTOOLCHAIN=local", "GOROOT="+r.Goroot())
	logf("running cmd/distpack for the host, %s", Host())
	for _, args := range [][]string{
		{r.GoCommand(), "build", "-o", tool, "cmd/distpack"},
		{tool},
	} {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir = filepath.Join(r.Goroot(), "src")
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %v", strings.Join(args, " "), err)
		}
	}
	return nil
}

// exportHead makes dir a fresh copy of the tree at its HEAD, with
// no git metadata and no build output.
func (r Repo) exportHead(ctx context.Context, dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", `git -C "$1" archive --format=tar HEAD | tar -x -C "$2"`, "sh", r.Goroot(), dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("copying %s's HEAD to %s: %v\n%s", r.rel(r.Goroot()), dir, err, out)
	}
	return nil
}

// collect moves the files cmd/distpack wrote in from into dist: archives
// to its top, module files to ModuleDir. Each run writes the same source
// archive; a different one is an error.
func collect(from, dist, version string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s is empty", from)
	}
	for _, e := range entries {
		name := e.Name()
		to := filepath.Join(dist, name)
		if strings.HasPrefix(name, "v0.0.1-") {
			to = filepath.Join(dist, ModuleDir, name)
		}
		if name == version+".src.tar.gz" {
			if same, err := sameContent(filepath.Join(from, name), to); err != nil {
				return err
			} else if same {
				continue
			} else if _, err := os.Stat(to); err == nil {
				return fmt.Errorf("the source archive differs from the one of an earlier platform's run")
			}
		}
		if err := os.Rename(filepath.Join(from, name), to); err != nil {
			return err
		}
	}
	return nil
}

// sameContent reports whether files a and b both exist and are equal.
func sameContent(a, b string) (bool, error) {
	ha, err := HashFile(a)
	if err != nil {
		return false, err
	}
	hb, err := HashFile(b)
	if os.IsNotExist(err) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return ha == hb, nil
}

// HashFile returns the SHA-256 of the file name, in hex.
func HashFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// CheckDistFiles fails unless dir holds exactly the files want (relative,
// slash-separated), besides SumsFile and distStamp.
func CheckDistFiles(dir string, want []string) error {
	have := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if rel != SumsFile && rel != distStamp {
			have[filepath.ToSlash(rel)] = true
		}
		return err
	})
	if err != nil {
		return err
	}
	var missing, extra []string
	for _, w := range want {
		if !have[w] {
			missing = append(missing, w)
		}
		delete(have, w)
	}
	for h := range have {
		extra = append(extra, h)
	}
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		return fmt.Errorf("%s: missing %v, unexpected %v", dir, missing, extra)
	}
	return nil
}

// SumFiles returns the sha256sum-format lines for files (relative to dir).
func SumFiles(dir string, files []string) ([]byte, error) {
	var b bytes.Buffer
	for _, f := range files {
		h, err := HashFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%s  %s\n", h, f)
	}
	return b.Bytes(), nil
}

// CheckSums re-hashes the files that dir's SumsFile lists and fails on
// any that differ or are missing.
func CheckSums(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, SumsFile))
	if err != nil {
		return err
	}
	n := 0
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		want, name, ok := strings.Cut(line, "  ")
		if !ok {
			return fmt.Errorf("%s: bad line %q", SumsFile, line)
		}
		got, err := HashFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s: sha256 %s, but %s says %s", name, got, SumsFile, want)
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("%s lists no files", SumsFile)
	}
	return nil
}
