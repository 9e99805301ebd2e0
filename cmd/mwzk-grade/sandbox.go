package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
)

// The graded code runs inside the suite's test binary with the grader's
// rights. The import allowlist (check.go) keeps it from the obvious, but
// allowed packages can still name any path: the logger opens log.file
// wherever it points, the properties reader reads any file, and a review
// used that to write the instructor's .git/config (a command that git then
// ran) and to read the hidden tests into a student's report. So on Linux
// the binary runs in a sandbox of its own: new user, mount, PID, network
// and IPC namespaces, a root that holds only the graded package's folder
// and the suite's binary (read-only; the binary execute-only), a tmpfs as
// its temp folder and a fresh pictures folder (writable; the grader keeps
// only the suite's pages from it, jailrun.go) and four devices; no /proc,
// no capabilities; a loopback of its own.

// sandboxArg is the hidden first argument with which mwzk-grade starts as
// the sandbox's first process: it builds the root, then becomes the suite.
const sandboxArg = "__mwzk-grade-sandbox"

// errNoSandbox: the graded code cannot be isolated on this machine.
var errNoSandbox = errors.New("cannot isolate the graded code")

// jail is what one run of the suite sees. Paths are absolute; each keeps
// its path inside.
type jail struct {
	Root  string   // an empty folder the new root is mounted on
	Keep  []string // folders visible read-only
	Write []string // folders visible and writable
	Dir   string   // the working directory inside
	Probe bool     // build the root and exit 0, running nothing
	// Scratch is a folder inside, a tmpfs of ScratchBytes: writable, and
	// gone with the sandbox (the run's TMPDIR).
	Scratch      string
	ScratchBytes int64
	// MemoryBytes caps the suite's private memory (RLIMIT_DATA; 0 for no
	// cap): a hand-in's leak ends its own run, not the grader's machine.
	MemoryBytes int64
	// Env is added to the command's environment at the last moment: the
	// result pipe's variable must not reach mwzk-grade's own start, whose
	// gradeseal init would take the key.
	Env []string
	// Race is the GORACE setting of a binary with the race detector, put
	// in a file /proc/self/environ of the new root: the race detector
	// reads its options from there, not from the environment Go sees, and
	// the root has no /proc (without it, GORACE=halt_on_error=1 is ignored
	// and a race does not stop the run). "" for no such file.
	Race string
}

// sandboxMain is mwzk-grade started with sandboxArg: args are the jail as
// JSON, then the command. It returns only on failure (125, go test's "could
// not run"); else it has become the command.
func sandboxMain(args []string) int {
	// The bounding set, the capabilities and no_new_privs belong to one
	// thread, and execve takes the calling thread's: all of it must happen
	// on the same one.
	runtime.LockOSThread()
	var j jail
	if len(args) < 1 || json.Unmarshal([]byte(args[0]), &j) != nil || !j.Probe && len(args) < 2 {
		fmt.Fprintln(os.Stderr, "mwzk-grade: sandbox: bad arguments (this mode is the grader's own)")
		return 125
	}
	if err := enterJail(j); err != nil {
		fmt.Fprintf(os.Stderr, "mwzk-grade: sandbox: %v\n", err)
		return 125
	}
	if j.Probe {
		return 0
	}
	if err := limitMemory(j.MemoryBytes); err != nil {
		fmt.Fprintf(os.Stderr, "mwzk-grade: sandbox: %v\n", err)
		return 125
	}
	err := execInJail(args[1], args[1:], append(os.Environ(), j.Env...))
	fmt.Fprintf(os.Stderr, "mwzk-grade: sandbox: run %s: %v\n", args[1], err)
	return 125
}

// sandboxCheck says once per process whether this machine can build the
// sandbox (nil) or why not. A variable for tests.
var sandboxCheck = sync.OnceValue(probeSandbox)

// testsUnconfined lets this package's tests grade hand-ins unconfined on a
// machine without a sandbox (TestMain sets it there and says so); the
// sandbox's own tests skip then.
var testsUnconfined bool

// sandboxPolicy decides whether a grading runs in the sandbox. A hand-in
// is someone else's code: without a sandbox it is not graded unless the
// instructor said --no-sandbox. One's own code (the checkout's
// assignments/ or solutions/) runs unconfined when the machine has no
// sandbox, with a note.
func sandboxPolicy(o *options, warn func(string)) (bool, error) {
	if o.noSandbox {
		return false, nil
	}
	err := sandboxCheck()
	if err == nil {
		return true, nil
	}
	if (o.submission != "" || o.submissions != "") && !testsUnconfined {
		return false, fmt.Errorf("%w (%v): its code would run with your rights, reading and writing your files; "+
			"grade on Linux with user namespaces allowed (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu "+
			"kernel.apparmor_restrict_unprivileged_userns=0), or take the risk with --no-sandbox (make: NO_SANDBOX=1)", errNoSandbox, err)
	}
	if warn != nil {
		warn(fmt.Sprintf("note: no sandbox on this machine (%v): the graded code runs with your rights", err))
	}
	return false, nil
}
