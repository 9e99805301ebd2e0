package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// capsProbeEnv makes TestCapabilitiesInsideTheSandbox check the process it
// runs in: the sandboxed copy of this test binary.
const capsProbeEnv = "MWZK_GRADE_CAPS_PROBE"

// TestCapabilitiesInsideTheSandbox: the suite, root in its user namespace,
// holds no capability, has an empty bounding set and no_new_privs, so it
// cannot undo the read-only mounts. It runs this test binary in a sandbox
// as the grader runs the suite, and this same test checks from inside.
func TestCapabilitiesInsideTheSandbox(t *testing.T) {
	if os.Getenv(capsProbeEnv) != "" {
		checkNoCapabilities(t)
		return
	}
	needSandbox(t, "nothing to check inside it")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A -race test binary is linked dynamically (the suite the grader
	// runs is not): its loader and libraries come along, read-only.
	keep := []string{self}
	for _, d := range []string{"/lib", "/lib64", "/usr/lib", "/usr/lib64"} {
		if _, err := os.Stat(d); err == nil {
			keep = append(keep, d)
		}
	}
	j := jail{Root: t.TempDir(), Keep: keep, Dir: "/", Env: []string{capsProbeEnv + "=1"}}
	cmd, err := jailed(context.Background(), j, self, "-test.run=^TestCapabilitiesInsideTheSandbox$", "-test.v")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = []string{}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("inside the sandbox: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: TestCapabilitiesInsideTheSandbox")) {
		t.Fatalf("the check inside the sandbox did not pass:\n%s", out)
	}
}

func checkNoCapabilities(t *testing.T) {
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if in, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); err != nil || in != 0 {
			t.Errorf("capability %d in the bounding set (%d, %v)", c, in, err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		t.Fatal(err)
	}
	for _, d := range data {
		if d.Effective != 0 || d.Permitted != 0 || d.Inheritable != 0 {
			t.Errorf("capabilities held: %+v", data)
		}
	}
	if v, err := unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); err != nil || v != 1 {
		t.Errorf("no_new_privs = %d (%v), want 1", v, err)
	}
	if err := os.WriteFile("/written-by-the-suite", nil, 0o644); err == nil {
		t.Errorf("the sandbox's root is writable")
	}
}
