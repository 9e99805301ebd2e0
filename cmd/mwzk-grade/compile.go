package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// errCompile says the submission's code does not build.
var errCompile = errors.New("the submission does not compile")

// errToolchain: the grader's machine cannot build the suite (the race
// detector's cgo without a C compiler or the static C library): no fault
// of the hand-in's, so no compile error of it, and graded again next time.
var errToolchain = errors.New("the grader's machine cannot build the suite")

// toolchainLine is a tool's line of a failed build (toolLines) that blames
// the machine: cgo finds no C compiler, or the static link no C library.
// Only the tools' lines: a hand-in's compile error quoting "cannot find
// -lc" would otherwise pass for the grader's fault, graded again forever.
var toolchainLine = regexp.MustCompile(`(?m)^(cgo: C compiler .* not found|.*cannot find -l\S+)`)

// toolchainFault is the line of msg that blames the machine, "" if none.
func toolchainFault(msg string) string { return toolchainLine.FindString(toolLines(msg)) }

// errCompileTime: the time limit ran out while the code was compiled.
var errCompileTime = errors.New(noCompile)

// noCompile is the problem of a grading whose compile did not finish: no
// test ran (NeverStarted).
const noCompile = "the code did not finish compiling within the time limit: no test ran"

// What a compile's output keeps: the compiler stops after ten errors, so
// only a hand-in that makes one message huge meets these.
const (
	compileHead = 64 << 10
	compileTail = 16 << 10
	compileLine = 2 << 10
)

// compilerCrash is a first line for a compile that died rather than
// reported errors: under the memory cap, Go's compiler stops with "out of
// memory" or (go1.26, seen) a SIGSEGV in its garbage collector.
// Only lines of the tools count: an error at a file's line, and the
// indented lines that go on from it (have/want), quote the hand-in's own
// code, which may say "fatal error: " too; a //line directive that could
// rename the file is refused (forbiddenDirectives).
func compilerCrash(msg string) string {
	t := toolLines(msg)
	switch {
	case strings.Contains(t, "out of memory") || strings.Contains(t, "cannot allocate memory"):
		return fmt.Sprintf("the compile ran out of memory: the grader gives the compiler %d MiB\n", jailMemory>>20)
	case strings.Contains(t, "SIGSEGV") || strings.Contains(t, "fatal error: "):
		return fmt.Sprintf("the compiler crashed, most likely out of memory: the grader gives the compiler %d MiB\n", jailMemory>>20)
	}
	return ""
}

// toolLines are the lines of a failed build that the tools wrote of
// themselves: not an error at a file's line, nor the indented lines that go
// on from it (have/want), which quote the hand-in's own code.
func toolLines(msg string) string {
	var tools strings.Builder
	for _, l := range strings.Split(msg, "\n") {
		if l != "" && l[0] != ' ' && l[0] != '\t' && !errorAtLine.MatchString(l) {
			tools.WriteString(l + "\n")
		}
	}
	return tools.String()
}

// errorAtLine is a compiler message about a place in a Go file, which may
// quote the hand-in's code.
var errorAtLine = regexp.MustCompile(`^\S+\.go:\d+`)

// graderTestFile is the grader's test file in gradedDir: it runs the suite.
const graderTestFile = "conformance_test.go"

// errNoSuite: the grading copy has no test to run.
var errNoSuite = errors.New("no test file")

// suitePkg is the package whose test binary runs the suite.
const suitePkg = "./" + gradedDir

// compileSuite builds the suite's test binary in t (buildMode; race: with
// the race detector). -trimpath keeps the
// build cache's entries valid across the grading copies; vet is the
// student's business, not the grade's. The compiler's messages name sub's
// files as the hand-in has them.
func compileSuite(ctx context.Context, t *tree, sub *submission, race bool) (string, error) {
	bin := filepath.Join(t.dir, "conformance.test")
	flags, env := buildMode(race)
	args := append(append([]string{"test", "-c", "-vet=off"}, flags...), "-o", bin, suitePkg)
	cmd := memoryCapped(ctx, "go", args...)
	cmd.Dir = t.dir
	cmd.Env = append(os.Environ(), env...)
	inGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	// The compiler's messages are the hand-in's to shape (a type whose
	// text doubles with each nested call: 48 MiB from 301 bytes), so only
	// their start and end are kept, and each line cut.
	out := &headTail{head: compileHead, tail: compileTail}
	cut := &lineCut{w: out, n: compileLine}
	cmd.Stdout, cmd.Stderr = cut, cut
	err := cmd.Run()
	killGroup(cmd)
	if ctx.Err() != nil {
		return "", fmt.Errorf("%w: %w", errCompileTime, ctx.Err())
	}
	if err != nil {
		cut.flush()
		msg := strings.TrimSpace(strings.ReplaceAll(out.String(), t.dir+"/", ""))
		if m := toolchainFault(msg); race && m != "" {
			return "", fmt.Errorf("%w: %s: the race detector needs cgo, a C compiler and the static C library "+
				"(Debian: apt-get install gcc libc6-dev), or grade with RACE=0 (--race=false)", errToolchain, m)
		}
		return "", fmt.Errorf("%w:\n%s", errCompile, inHandIn(compilerCrash(msg)+msg, sub)+missingFiles(t.handout, sub))
	}
	if _, err := os.Stat(bin); err != nil {
		// go test -c writes nothing, and says nothing, for a package
		// without tests: the grader's own test file is gone from the tree.
		return "", fmt.Errorf("%s%s: %w: the grader's tests are missing from this tree; restore the file (a student: from the handout's tarball, or git checkout)",
			gradedDir, graderTestFile, errNoSuite)
	}
	return bin, nil
}

// missingFiles names the handout's files that a hand-in that does not
// compile lacks: a provided file left out (or renamed, or its folder's
// files spread over two) shows only as names the compiler finds
// undefined.
func missingFiles(handout []string, sub *submission) string {
	var missing []string
	for _, name := range handout {
		if _, ok := sub.Files[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("\nthe hand-in has no %s of the handout's %s: what the lines above find undefined may be there",
		strings.Join(missing, ", "), strings.TrimSuffix(sub.at(""), "/"))
}

// inHandIn renames the graded files the compiler's lines start with
// (after their indent: a redeclaration names its second file on an
// indented line) to where the hand-in has them, as refusals name files: a
// student whose code sits in aufgabe5/assignments/aufgabe5/ finds the file
// a line names. The grader's own files there (conformance_test.go) keep
// the grading copy's path: the hand-in's copies are not the ones compiled.
func inHandIn(msg string, sub *submission) string {
	lines := strings.Split(msg, "\n")
	for k, l := range lines {
		body := strings.TrimLeft(l, " \t")
		rest, ok := strings.CutPrefix(body, gradedDir)
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, ":")
		if _, graded := sub.Files[name]; graded {
			lines[k] = l[:len(l)-len(body)] + sub.at(rest)
		}
	}
	return strings.Join(lines, "\n")
}

// warmTimeout bounds warmCache: it compiles only the grader's own code.
const warmTimeout = 10 * time.Minute

// warmCache compiles, once and before any hand-in's clock starts, every
// package the suite's test binary needs but the graded one, in the mode
// compileSuite builds (buildMode), so that a cold build
// cache (a fresh machine, the first hand-in of a class) does not eat a
// hand-in's time limit: with it, a hand-in's compile is its own package
// and the link. It is best effort: a failure only leaves the cache cold.
func warmCache(ctx context.Context, root string, race bool, log io.Writer) {
	ctx, cancel := context.WithTimeout(ctx, warmTimeout)
	defer cancel()
	start := time.Now()
	flags, mode := buildMode(race)
	env := append(os.Environ(), mode...)
	list := exec.CommandContext(ctx, "go", "list", "-e", "-deps", "-test", "-tags", buildTags(race),
		"-f", "{{if not (or .ForTest .Standard)}}{{.ImportPath}}{{end}}", suitePkg)
	list.Dir, list.Env = root, env
	out, err := list.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%v: %s", err, firstError(string(ee.Stderr)))
		}
		fmt.Fprintf(log, "mwzk-grade: the build cache was not prepared (go list: %v); the first compile may take longer\n", err)
		return
	}
	graded := strings.TrimSuffix(gradedDir, "/")
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasSuffix(p, graded) && !strings.HasSuffix(p, ".test") && !strings.HasSuffix(p, "_test") {
			pkgs = append(pkgs, p)
		}
	}
	build := exec.CommandContext(ctx, "go", append(append([]string{"build"}, flags...), pkgs...)...)
	build.Dir, build.Env = root, env
	if msg, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(log, "mwzk-grade: the build cache was not prepared (go build: %v): %s\n", err, firstError(string(msg)))
		return
	}
	if d := time.Since(start); d > 5*time.Second {
		fmt.Fprintf(log, "mwzk-grade: compiled the suite's %d packages into the build cache in %v (once, outside any hand-in's time)\n",
			len(pkgs), d.Round(time.Second))
	}
}

// firstError is the first line of a go command's output that is not a
// package header ("# zablab/dep").
func firstError(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return strings.TrimSpace(out)
}

// limitArg makes mwzk-grade cap its memory and become the command after
// it: the compile's wrapper, whose RLIMIT_DATA go's compile and link
// inherit. A static array of 16 GiB in 60 bytes of a hand-in otherwise
// makes the compiler on the grader's host ask the machine for 16 GiB.
const limitArg = "__mwzk-grade-limit"

// memoryCapped is name with args under the sandbox's memory cap
// (jailMemory), through mwzk-grade's own binary; where that cannot be (not
// Linux, no own binary), the command alone.
func memoryCapped(ctx context.Context, name string, args ...string) *exec.Cmd {
	self, err := os.Executable()
	if err != nil || runtime.GOOS != "linux" || jailMemory <= 0 {
		return exec.CommandContext(ctx, name, args...)
	}
	return exec.CommandContext(ctx, self, append([]string{limitArg, strconv.FormatInt(jailMemory, 10), name}, args...)...)
}

// limitMain is mwzk-grade started with limitArg: BYTES COMMAND [ARG...].
func limitMain(args []string) int {
	if len(args) < 2 {
		fmt.Fprintf(os.Stderr, "mwzk-grade: usage: %s BYTES COMMAND [ARG...]\n", limitArg)
		return 2
	}
	n, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mwzk-grade: %s: bad byte count %q\n", limitArg, args[0])
		return 2
	}
	path, err := exec.LookPath(args[1])
	if err == nil {
		if err = limitMemory(n); err == nil {
			err = execLimited(path, args[1:], os.Environ())
		}
	}
	fmt.Fprintf(os.Stderr, "mwzk-grade: run %s with %d MiB: %v\n", args[1], n>>20, err)
	return 1
}
