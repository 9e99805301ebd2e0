package artifacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEnvCollectsEveryTestsFiles(t *testing.T) {
	root := t.TempDir()
	t.Setenv(Env, root)
	for _, dir := range []string{Keep(t), Scratch(t)} {
		if want := filepath.Join(root, "TestEnvCollectsEveryTestsFiles"); dir != want {
			t.Fatalf("folder %s, want %s", dir, want)
		}
	}
}

func TestKeepOutlivesTheTest(t *testing.T) {
	t.Setenv(Env, "")
	var kept string
	t.Run("sub test", func(t *testing.T) { kept = Keep(t) })
	defer os.RemoveAll(kept)
	if st, err := os.Stat(kept); err != nil || !st.IsDir() || !strings.Contains(kept, "sub_test") {
		t.Fatalf("Keep's folder %s after the test: %v", kept, err)
	}
	var scratch string
	t.Run("scratch", func(t *testing.T) { scratch = Scratch(t) })
	if _, err := os.Stat(scratch); !os.IsNotExist(err) {
		t.Fatalf("Scratch's folder %s is still there after its test: %v", scratch, err)
	}
}
