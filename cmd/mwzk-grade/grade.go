package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// implDirs are the checkout's folders --impl names.
var implDirs = map[string]string{
	"assignment": strings.TrimSuffix(gradedDir, "/"),
	"solution":   strings.TrimSuffix(refFolder, "/"),
}

// checkoutSubmission is the checkout's own assignments/aufgabe5 (or the
// reference, or the reference with a known-bad variant applied): the
// working files, as they are now.
func checkoutSubmission(root string, o options) (*submission, error) {
	dir := implDirs[o.impl]
	names, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		return nil, err
	}
	s := &submission{Name: dir, Files: map[string][]byte{}, dir: dir + "/"}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		s.Files[filepath.Base(n)] = b
	}
	if len(s.Files) == 0 {
		return nil, fmt.Errorf("no .go files in %s", filepath.Join(root, dir))
	}
	s.Ignored = subfolderFiles(root, dir)
	if o.variant == "" {
		return s, nil
	}
	v, err := loadVariant(o.variant)
	if err != nil {
		return nil, err
	}
	for _, fp := range v.files {
		base, ok := strings.CutPrefix(fp.path, refFolder)
		if !ok || s.Files[base] == nil || o.impl != "solution" {
			return nil, fmt.Errorf("variant %s: %s is not a file of %s", o.variant, fp.path, refFolder)
		}
		patched, err := fp.apply(string(s.Files[base]))
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", o.variant, err)
		}
		s.Files[base] = []byte(patched)
	}
	s.Name = "solutions/aufgabe5 with variant " + strings.TrimSuffix(filepath.Base(o.variant), ".diff")
	s.variant = true
	return s, nil
}

// subfolderFiles lists the Go files in subfolders of the checkout's dir,
// which a self-grade leaves out as a hand-in's grading does: the report
// says so before a hand-in finds out.
func subfolderFiles(root, dir string) []string {
	var out []string
	filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel = filepath.ToSlash(rel); strings.Count(strings.TrimPrefix(rel, dir+"/"), "/") > 0 {
			out = append(out, rel+": in a subfolder of "+dir+"/")
		}
		return nil
	})
	return out
}

// gradeSubmission grades sub in a fresh copy of the grader's tree. The
// report is filled as far as grading got; the error says why it stopped
// early (errRefused, errCompile, errTimeout) or that it could not run.
func gradeSubmission(ctx context.Context, root string, o options, sub *submission, log io.Writer) (*Report, error) {
	start := time.Now()
	var err error
	rep := &Report{Submission: sub.Name, Origin: sub.Origin, Ref: sub.Ref, Variant: o.variant, Extra: o.extra, Race: o.race,
		Part: o.part, Repeat: o.repeat, Timeout: o.timeout.String(), SHA256: sub.sha256(), Ignored: sub.Ignored, Dir: sub.at(""),
		Grader: graderVersion(root), GoVersion: goVersion(), Date: start.UTC().Format(time.RFC3339)}
	if sub.Origin == "" {
		rep.Impl = o.impl
	} else {
		rep.Notes = append(rep.Notes, copyNotes(root, sub.Files)...)
	}
	for n := range sub.Files {
		rep.Files = append(rep.Files, n)
	}
	slices.Sort(rep.Files) // two gradings' grade.json compare line by line
	defer func() { rep.Seconds = time.Since(start).Round(10 * time.Millisecond).Seconds() }()
	if rep.GraderTree, err = graderTreeHash(root, o.extra, o.leave()...); err != nil {
		return nil, fmt.Errorf("hash the grader's files in %s: %w", root, err)
	}
	err = gradeInTree(ctx, root, o, sub, rep, log)
	switch {
	case err == nil:
		rep.Status = "graded"
	case errors.Is(err, errRefused):
		rep.Status = "refused"
		rep.Problems = append([]string{strings.TrimPrefix(err.Error(), errRefused.Error()+": ")}, rep.Problems...)
	case errors.Is(err, errCompile):
		rep.Status = "compile-error"
		rep.Compile = strings.Split(strings.TrimPrefix(err.Error(), errCompile.Error()+":\n"), "\n")
	case errors.Is(err, errTimeout):
		rep.Status = "timeout"
		if errors.Is(err, errRunTimeout) {
			rep.Problems = append(rep.Problems, "a run was stopped at its time limit before its tests finished (its lines above say which limit)")
		} else {
			rep.Problems = append(rep.Problems, fmt.Sprintf("grading did not finish within %v", o.total()))
		}
		if errors.Is(err, errCompileTime) {
			rep.Problems = append(rep.Problems, noCompile)
		}
	default:
		return rep, err
	}
	if rep.Parts == nil {
		score(rep, nil, o.part)
	}
	return rep, err
}

func gradeInTree(ctx context.Context, root string, o options, sub *submission, rep *Report, log io.Writer) error {
	if err := sub.checkForeign(root); err != nil {
		return err
	}
	unreadable, err := checkFiles(sub.Files, sub.at, !sub.variant && !o.sharedUnchecked)
	if err != nil {
		return err
	}
	t, err := buildTree(root, sub, o.extra, o.leave()...)
	if err != nil {
		return err
	}
	defer t.remove()
	ctx, cancel := context.WithTimeout(ctx, o.total())
	defer cancel()
	bin, err := compileSuite(ctx, t, sub, o.race)
	if err != nil {
		return err
	}
	if err := refuseUnchecked(unreadable); err != nil {
		return err
	}
	if err := preparePictures(o.pictures); err != nil {
		return err
	}
	jailed, err := sandboxPolicy(&o, func(note string) { fmt.Fprintf(log, "mwzk-grade: %s\n", note) })
	if err != nil {
		return err
	}
	rep.Unconfined = !jailed
	runs, err := runRepeats(ctx, t, bin, o, sub.Name, jailed, log)
	if err != nil {
		return err
	}
	score(rep, runs, o.part)
	attachPictures(rep, o.pictures, o.picturesBase, o.repeat) // a run cut short left its pages in its run's folder too
	rep.Seeds = seedsOf(runs)
	if ctx.Err() != nil {
		return errTimeout
	}
	if slices.ContainsFunc(runs, func(r *run) bool { return r.timedOut }) {
		return errRunTimeout
	}
	return nil
}

// runRepeats runs the compiled suite o.repeat times (REPEAT), each run
// with its own time limit, and says so on log when there is more than one.
func runRepeats(ctx context.Context, t *tree, bin string, o options, name string, jailed bool, log io.Writer) ([]*run, error) {
	var runs []*run
	for k := range o.repeat {
		if o.repeat > 1 {
			fmt.Fprintf(log, "mwzk-grade: %s: run %d/%d …\n", name, k+1, o.repeat)
		}
		spec := runSpec{part: o.part, timeout: o.timeout, run: k, runs: o.repeat, ports: o.ports, pictures: runPictures(o.pictures, k, o.repeat),
			seed: o.seed, replay: o.replayCommand(), jailed: jailed, race: o.race}
		if k < len(o.seeds) {
			spec.seeds = o.seeds[k]
		}
		r, err := runSuite(ctx, t, bin, spec)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
		if o.repeat > 1 {
			fmt.Fprintf(log, "mwzk-grade: %s: run %d/%d: %s\n", name, k+1, o.repeat, runSummary(r, o.part))
		}
		// Only the grader's own clock ends the runs early: a run that Go's
		// -test.timeout stopped (or whose output only says so) is
		// followed by the rest, each with its own time, and a test earns
		// its points only by passing in all of them.
		if ctx.Err() != nil {
			break
		}
	}
	return runs, nil
}

// runSummary is one run's passes, for the progress line.
func runSummary(r *run, part string) string {
	pass, all := 0, 0
	for _, m := range r.manifest {
		if part == "" || m.Part == part {
			all++
			if r.credited(m.Part + "/" + m.Name) {
				pass++
			}
		}
	}
	return fmt.Sprintf("%d of %d tests passed", pass, all)
}

// graderVersion is the grader's commit, "dirty" when its tracked files
// differ from it, "unknown" without git; in an unpacked handout, "handout"
// and the commit it was packed from (a student's own git history there
// says nothing about the grader). A handout is a tree with HANDOUT-VERSION
// and without the reference (solutions/aufgabe5), so a stray copy of the
// file in the project's checkout does not hide its changes.
func graderVersion(root string) string {
	if v, err := os.ReadFile(filepath.Join(root, "HANDOUT-VERSION")); err == nil {
		if _, err := os.Stat(filepath.Join(root, "solutions", "aufgabe5")); errors.Is(err, fs.ErrNotExist) {
			return "handout " + strings.TrimSpace(string(v))
		}
	}
	head, err := gitOut(root, "rev-parse", "HEAD")
	if err != nil {
		return "unknown"
	}
	if st, err := gitOut(root, "status", "--porcelain", "--untracked-files=no"); err != nil || strings.TrimSpace(st) != "" {
		return "dirty"
	}
	return strings.TrimSpace(head)
}

// goVersion is the go command's version (the one that builds the suite).
func goVersion() string {
	out, err := helperCommand("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}
