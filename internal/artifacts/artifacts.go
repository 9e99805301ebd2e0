// Package artifacts gives tests a folder for the files they make for a
// person to open — HTML timelines, failing histories, screenshots —
// without writing into the source tree:
//
//   - with ZABLAB_ARTIFACTS=<dir> set: <dir>/<test name>/, kept;
//   - with go test -artifacts: the test's t.ArtifactDir(), kept;
//   - otherwise, for a file a failure names (Keep): a new folder under the
//     system's temporary folder, kept so the reader can open it;
//   - otherwise (Scratch): a folder removed when the test ends.
package artifacts

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Env names the folder that collects every test's artifacts.
const Env = "ZABLAB_ARTIFACTS"

// Keep returns a folder for files a failure message names: they must
// still be there when the reader follows the message.
func Keep(t testing.TB) string {
	t.Helper()
	if d := fromEnvOrFlag(t); d != "" {
		return d
	}
	d, err := os.MkdirTemp("", "zablab-"+DirName(t.Name())+"-")
	if err != nil {
		t.Fatalf("a folder for the test's files: %v", err)
	}
	return d
}

// Scratch returns a folder for files worth keeping only when asked
// (ZABLAB_ARTIFACTS, -artifacts); otherwise it is removed after the test.
func Scratch(t testing.TB) string {
	t.Helper()
	if d := fromEnvOrFlag(t); d != "" {
		return d
	}
	return t.TempDir()
}

func fromEnvOrFlag(t testing.TB) string {
	if root := os.Getenv(Env); root != "" {
		d := filepath.Join(root, DirName(t.Name()))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("%s=%s: %v", Env, root, err)
		}
		return d
	}
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		if a, ok := t.(interface{ ArtifactDir() string }); ok {
			return a.ArtifactDir()
		}
	}
	return ""
}

// DirName turns a test name ("TestX/sub case") into the name of its
// folder under ZABLAB_ARTIFACTS, so a program that ran the test (the
// grader) finds what it left.
func DirName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' || r == os.PathSeparator || r == ':' {
			return '_'
		}
		return r
	}, name)
}
