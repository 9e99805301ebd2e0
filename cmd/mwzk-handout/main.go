package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"zablab/internal/procs"
)

func main() {
	// From the start, not from the check's: a go run killed while the
	// archive was packed left the tool orphaned by the time it asked, and
	// it ran the whole check. Killed before the check, the tool dies of
	// the SIGTERM; during it, verify's handler stops the check.
	procs.StopWithGoRun()
	err := run1(os.Args[1:], os.Stdout)
	if code := exitCode(err); code != 0 {
		fmt.Fprintln(os.Stderr, "mwzk-handout:", err)
		os.Exit(code)
	}
}

// errUsage marks a bad command line: exit status 2, as for the other
// commands; any other failure is 1.
var errUsage = errors.New("bad command line")

// exitCode is the status for run1's result: --help printed the flags, and
// asking for help is no failure.
func exitCode(err error) int {
	switch {
	case err == nil || errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, errInterrupted):
		return 130 // as make test's trap, and a shell's for a job stopped with Ctrl-C
	}
	return 1
}

// options are the command's flags.
type options struct {
	out      string
	rev      string
	check    bool
	keep     bool
	testPkgs string
	parity   bool
	stubs    bool
	fill     []string
	stubDir  string
}

func run1(args []string, log io.Writer) error {
	var o options
	fs := pflag.NewFlagSet("mwzk-handout", pflag.ContinueOnError)
	fs.StringVar(&o.out, "out", "handout/aufgabe5.tar.gz", "archive to write")
	fs.StringVar(&o.rev, "rev", "", "pack this commit instead of the working tree's tracked files")
	fs.BoolVar(&o.check, "check", true, "unpack the archive into a temporary folder and build, vet, test and grade it there")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary folder of the check")
	fs.StringVar(&o.testPkgs, "test-pkgs", "", "packages the check's make test runs (PKGS); empty: the whole tree, as a student runs it")
	fs.BoolVar(&o.parity, "parity", false, "only compare assignments/aufgabe5 with solutions/aufgabe5 and print any drift")
	fs.BoolVar(&o.stubs, "stubs", false, "only regenerate assignments/aufgabe5 from solutions/aufgabe5 (at --rev, if given) and the stub spec")
	fs.StringSliceVar(&o.fill, "fill", nil, "with --stubs: these TODO functions keep the reference's body (a student's tree at some step)")
	fs.StringVar(&o.stubDir, "stub-dir", "", "with --stubs: write the stubs into this folder instead of "+stubDir)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	if o.parity {
		return printParity(root, log)
	}
	if err := setFilled(o.fill); err != nil {
		return err
	}
	if o.stubs {
		if err := writeStubs(root, o.rev, o.stubDir); err != nil {
			return err
		}
		if o.stubDir != "" || len(o.fill) > 0 {
			fmt.Fprintf(log, "handout: wrote %s from %s, %d TODO function(s) filled in\n", cmp.Or(o.stubDir, stubDir), refDir, len(o.fill))
			return nil
		}
		fmt.Fprintf(log, "handout: wrote %s from %s\n", stubDir, refDir)
		return printParity(root, log)
	}
	left, err := build(root, o, log)
	if err != nil {
		return err
	}
	if !o.check {
		return nil
	}
	if err := verify(root, o, left, log); err != nil {
		return err
	}
	fmt.Fprintf(log, "handout: %s is ready\n", o.out)
	return nil
}

// build writes the archive, prints what it holds and what it left out,
// and returns the files left out.
func build(root string, o options, log io.Writer) ([]dropped, error) {
	files, err := trackedFiles(root, o.rev)
	if err != nil {
		return nil, err
	}
	kept, left, err := selectFiles(files)
	if err != nil {
		return nil, err
	}
	if kept, err = forStudents(kept); err != nil {
		return nil, err
	}
	v, err := versionEntry(root, o.rev)
	if err != nil {
		return nil, err
	}
	kept = append(kept, v)
	if m := mentions(kept); len(m) > 0 {
		return nil, fmt.Errorf("%w: the handout's text mentions what only instructors have:\n  %s", errCheck, strings.Join(m, "\n  "))
	}
	if b := brokenLinks(kept); len(b) > 0 {
		return nil, fmt.Errorf("%w: the handout's docs link what it leaves out:\n  %s", errCheck, strings.Join(b, "\n  "))
	}
	if m := missingDocs(kept); len(m) > 0 {
		return nil, fmt.Errorf("%w: the handout's files mention docs it leaves out:\n  %s", errCheck, strings.Join(m, "\n  "))
	}
	fmt.Fprintf(log, "handout: %d tracked files, %d for students, %d left out\n", len(files), len(kept), len(left))
	for _, why := range summarize(left) {
		fmt.Fprintf(log, "handout:   left out %s\n", why)
	}
	mtime, err := commitTime(root, o.rev)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := writeTar(&buf, kept, mtime); err != nil {
		return nil, err
	}
	written, err := writeArchive(o, buf.Bytes())
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "handout: wrote %s (%d KiB)\n", written, buf.Len()>>10)
	return left, nil
}

// writeArchive writes the archive and returns where: under its own name
// without the check; with it, as <out>.unchecked until the check passes
// (verify), and an earlier run's archive of that name is removed first. An
// interrupted check so leaves no archive that looks ready to hand out, nor
// an older one that looks like this run's.
func writeArchive(o options, data []byte) (string, error) {
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return "", err
	}
	written := o.out
	if o.check {
		written += uncheckedSuffix
	}
	// Earlier runs' archives beside this one would confuse which is which.
	for _, old := range []string{o.out, o.out + failedSuffix, o.out + uncheckedSuffix} {
		if err := os.Remove(old); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	return written, os.WriteFile(written, data, 0o644)
}

// summarize groups the files left out by reason: one line per folder rule
// with a count, and one line per Go file dropped for its imports.
func summarize(left []dropped) []string {
	var lines []string
	count := map[string]int{}
	for _, d := range left {
		if strings.HasPrefix(d.why, "instructor only") {
			if count[d.why] == 0 {
				lines = append(lines, d.why)
			}
			count[d.why]++
			continue
		}
		lines = append(lines, d.path+": "+d.why)
	}
	for i, l := range lines {
		if n := count[l]; n > 0 {
			lines[i] = fmt.Sprintf("%s: %d file(s)", l, n)
		}
	}
	return lines
}

// commitTime is the time of rev (or HEAD): the archive's entries carry it,
// so packing the same commit twice gives the same bytes.
func commitTime(root, rev string) (time.Time, error) {
	if rev == "" {
		rev = "HEAD"
	}
	out, err := git(root, "log", "-1", "--format=%ct", rev)
	if err != nil {
		return time.Time{}, err
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: commit time of %s: %q", errGit, rev, out)
	}
	return time.Unix(sec, 0).UTC(), nil
}

// repoRoot is the top of the git work tree we run in.
func repoRoot() (string, error) {
	out, err := git(".", "rev-parse", "--show-toplevel")
	if err != nil { // an exported tree (git archive, a tarball) has no history to pack from
		return "", fmt.Errorf("the handout is packed from a git checkout's tracked files, and . is not one: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}
