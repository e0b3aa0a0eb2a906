package toolchain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// ModulePath is the module that carries Go toolchains.
const ModulePath = "golang.org/toolchain"

// ModuleVersion is the version of ModulePath that carries the toolchain
// named version (such as "go1.23.12" or "go1.23.12-spinbit") built for
// platform ("linux-amd64"), as the go command and cmd/distpack name it.
func ModuleVersion(version, platform string) string {
	return moduleVersionPrefix + version + "." + platform
}

// moduleVersionPrefix begins every version of ModulePath.
const moduleVersionPrefix = "v0.0.1-"

// A Module is a module the go command downloaded and verified.
type Module struct {
	Dir string // the extracted tree in the module cache
	Sum string // its h1: checksum
}

// Download fetches path@version with `go mod download`, which checks it
// against the checksum database (as GOSUMDB and GONOSUMDB say), and returns
// where it was extracted and its checksum.
func Download(ctx context.Context, path, version string) (*Module, error) {
	cmd, err := moduleCommand(ctx, "mod", "download", "-json", path+"@"+version)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var m struct{ Dir, Sum, Error string }
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil && runErr == nil {
		return nil, fmt.Errorf("go mod download -json %s@%s: cannot parse its output: %v", path, version, err)
	}
	if msg := firstNonEmpty(m.Error, strings.TrimSpace(stderr.String())); runErr != nil || m.Error != "" {
		if msg == "" {
			msg = runErr.Error()
		}
		return nil, fmt.Errorf("go mod download %s@%s failed: %s\n"+
			"check that the module proxy is reachable (GOPROXY=%s)", path, version, msg, goEnv("GOPROXY"))
	}
	if m.Dir == "" || m.Sum == "" {
		return nil, fmt.Errorf("go mod download -json %s@%s reported no Dir or Sum", path, version)
	}
	return &Module{Dir: m.Dir, Sum: m.Sum}, nil
}

// moduleCommand returns the go command on PATH with args, set to ask the
// module proxy and the checksum database as GOPROXY and GOSUMDB say and
// nothing else: GOTOOLCHAIN=local, without the caller's GOROOT and GOFLAGS,
// and outside any module, so that no go.mod or go.work is consulted. ctx
// bounds its run, including the wait for a process it started (such as
// git) that holds its output open.
func moduleCommand(ctx context.Context, args ...string) (*exec.Cmd, error) {
	gocmd, err := GoCommand()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, gocmd, args...)
	cmd.Env = append(EnvWithout(os.Environ(), "GOTOOLCHAIN", "GOROOT", "GOFLAGS"), "GOTOOLCHAIN=local")
	cmd.Dir = os.TempDir()
	cmd.WaitDelay = waitDelay
	return cmd, nil
}

// waitDelay is how long a go command stopped by its context has to close
// its output before it is abandoned.
const waitDelay = 5 * time.Second
