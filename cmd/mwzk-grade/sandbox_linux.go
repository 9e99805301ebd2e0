package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// sandboxFlags are the namespaces of the sandbox: the user namespace makes
// the rest possible without privilege; the PID namespace ends every
// process the suite leaves with it; the network namespace gives each run
// a loopback of its own. The root has no /proc at all: the grader's
// entries there (whose cwd link leads out of any mount namespace), the
// suite's own memory (/proc/self/mem) and binary (/proc/self/exe, with the
// hidden tests' text) are none of the graded code's business.
const sandboxFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
	syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS

// jailed returns a command that runs name with args in the sandbox j, in
// its own process group that dies with the grader (as inGroup).
func jailed(ctx context.Context, j jail, name string, args ...string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("%w: find mwzk-grade's own binary: %v", errNoSandbox, err)
	}
	spec, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, append([]string{sandboxArg, string(spec), name}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: sandboxFlags,
		// Root inside, so the first process may mount; it gives up every
		// capability before it runs the suite.
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	return cmd, nil
}

// probeSandbox builds an empty sandbox once: nil if this machine can.
func probeSandbox() error {
	root, err := os.MkdirTemp("", "mwzk-grade-probe-*")
	if err != nil {
		return err
	}
	defer os.Remove(root)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd, err := jailed(ctx, jail{Root: root, Dir: "/", Probe: true}, "")
	if err != nil {
		return err
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		if len(out) > 0 {
			return fmt.Errorf("%v: %s", err, out)
		}
		return err
	}
	return nil
}

// enterJail builds the new root on j.Root, moves into it, makes it
// read-only but for j.Write, brings up loopback and drops every
// capability. It runs as the first process of the new namespaces.
func enterJail(j jail) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := unix.Mount("tmpfs", j.Root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m"); err != nil {
		return fmt.Errorf("mount the new root on %s: %w", j.Root, err)
	}
	for _, p := range append(append([]string{}, j.Keep...), j.Write...) {
		if err := bindInto(j.Root, p); err != nil {
			return err
		}
	}
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"} {
		if err := bindInto(j.Root, dev); err != nil {
			return err
		}
	}
	if j.Scratch != "" {
		if err := os.MkdirAll(filepath.Join(j.Root, j.Scratch), 0o755); err != nil {
			return err
		}
	}
	if err := raceOptions(j.Root, j.Race); err != nil {
		return err
	}
	if err := unix.Chdir(j.Root); err != nil {
		return err
	}
	if err := unix.Chroot("."); err != nil {
		return fmt.Errorf("chroot %s: %w", j.Root, err)
	}
	if err := readOnly(j.Write); err != nil {
		return err
	}
	if j.Scratch != "" { // mounted after readOnly, so it stays writable
		opts := fmt.Sprintf("mode=1777,size=%d", j.ScratchBytes)
		if err := unix.Mount("tmpfs", j.Scratch, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			return fmt.Errorf("mount the temp folder %s: %w", j.Scratch, err)
		}
	}
	if err := loopbackUp(); err != nil {
		return err
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	return unix.Chdir(j.Dir)
}

// raceOptions writes the race detector's options (gorace, "GORACE=...")
// where it reads them, /proc/self/environ under root, before the root is
// made read-only; nothing for "". It is a plain file: the root still has no
// /proc of the kernel's.
func raceOptions(root, gorace string) error {
	if gorace == "" {
		return nil
	}
	dir := filepath.Join(root, "proc", "self")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("the race detector's options: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "environ"), []byte(gorace+"\x00"), 0o444); err != nil {
		return fmt.Errorf("the race detector's options: %w", err)
	}
	return nil
}

// bindInto makes path, a folder or a file, visible at the same path under
// root.
func bindInto(root, path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	target := filepath.Join(root, path)
	if st.IsDir() {
		err = os.MkdirAll(target, 0o755)
	} else if err = os.MkdirAll(filepath.Dir(target), 0o755); err == nil {
		err = os.WriteFile(target, nil, 0o644)
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(path, target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", path, err)
	}
	return nil
}

// readOnly makes the whole new root read-only, then write writable again.
func readOnly(write []string) error {
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, ro); err != nil {
		return fmt.Errorf("make the root read-only: %w", err)
	}
	rw := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	for _, d := range write {
		if err := unix.MountSetattr(unix.AT_FDCWD, d, unix.AT_RECURSIVE, rw); err != nil {
			return fmt.Errorf("make %s writable: %w", d, err)
		}
	}
	return nil
}

// loopbackUp brings up lo, which a new network namespace has down.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bring up loopback: %w", err)
	}
	return nil
}

// dropCapabilities empties the bounding set (so the suite, root in the
// namespace, gets no capability at exec and cannot undo a mount), forbids
// gaining privileges, and drops what this process holds.
func dropCapabilities() error {
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if err := unix.Capset(&hdr, &none[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	return nil
}

// limitMemory caps the private writable memory of the process and what it
// executes (RLIMIT_DATA counts the Go heap's mappings, and no reservation
// that is not yet used): Go then stops with "fatal error: runtime: out of
// memory" where the machine's OOM killer would pick some process of the
// instructor's.
func limitMemory(n int64) error {
	if n <= 0 {
		return nil
	}
	lim := unix.Rlimit{Cur: uint64(n), Max: uint64(n)}
	if err := unix.Setrlimit(unix.RLIMIT_DATA, &lim); err != nil {
		return fmt.Errorf("limit the memory to %d MiB: %w", n>>20, err)
	}
	return nil
}

// execInJail becomes the command. Of the descriptors it inherits, only 0-4
// (the standard ones, the key and the result pipe) go along: the grader's
// own parent may have left others open.
func execInJail(name string, argv, env []string) error {
	if err := unix.CloseRange(5, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return fmt.Errorf("close inherited descriptors: %w", err)
	}
	return unix.Exec(name, argv, env)
}

// execLimited becomes the command, as the compile's wrapper (limitMain).
func execLimited(path string, argv, env []string) error {
	return unix.Exec(path, argv, env)
}
