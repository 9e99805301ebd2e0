package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// batchItem is one entry of the submissions folder.
type batchItem struct {
	name, path string
	rep        *Report
	skipped    bool
	// interrupted: the batch was stopped while this one was graded; its
	// result is not recorded, its last grade (if any) stays.
	interrupted bool
	// earlier: rep is the grade of an earlier batch (this one was
	// interrupted before it); changed: of other files than the hand-in's
	// now, which the gradebook says (an instructor's trial could not tell
	// the stale rows from the current ones).
	earlier, changed bool
}

// gradeBatch grades every entry of o.submissions, each in its own tree,
// port range and time limit, o.jobs at once, and writes the gradebook and
// one folder of reports per submission under o.out. A submission whose
// files and grader are unchanged since the last batch is not graded again.
func gradeBatch(ctx context.Context, root string, o options, log io.Writer) error {
	items, texts, err := listSubmissions(o.submissions)
	if err != nil {
		return err
	}
	if items = withoutReports(items, o.out, log); len(items) == 0 {
		return fmt.Errorf("--submissions %s: nothing in it but the reports folder --out %s", o.submissions, o.out)
	}
	for _, n := range texts {
		fmt.Fprintf(log, "mwzk-grade: left out %s: a course platform's online text, not a hand-in\n", visible(n))
	}
	if err := otherPartsGrades(o.out, o.part); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	limit := o.total().String()
	if o.repeat > 1 {
		limit += fmt.Sprintf(" (%d runs of %v)", o.repeat, o.timeout)
	}
	fmt.Fprintf(log, "mwzk-grade: %s in %s, %d at once, %s each at most; reports to %s\n",
		plural(len(items), "submission"), o.submissions, o.jobs, limit, o.out)
	if rel, ok := seenByGoTool(root, o.submissions); ok {
		fmt.Fprintf(log, "mwzk-grade: warning: %s is inside the checkout, where go test ./... (make test) and go vet compile its folders as packages of the module, students' tests included; move it out, or name it _%s (Go skips folders starting with _)\n",
			rel, filepath.Base(rel))
	}
	warmCache(ctx, root, o.race, log)
	gradeItems(ctx, root, o, items, log)
	book := filepath.Join(o.out, gradebookFile)
	if ctx.Err() != nil {
		return interrupted(ctx, o, items, book, log)
	}
	if err := writeGradebook(book, items); err != nil {
		return err
	}
	fmt.Fprintf(log, "mwzk-grade: wrote %s: %s\n", book, statusCounts(items))
	return nil
}

// otherPartsGrades refuses to grade part (all parts when "") into an out
// folder that holds grades of other parts: every hand-in's reports would
// be replaced, and a class's whole grades, seeds for --replay included,
// were gone after a PART=A5.2 run meant to look at one part (an
// instructor's trial).
func otherPartsGrades(out, part string) error {
	files, _ := filepath.Glob(filepath.Join(out, "*", "grade.json"))
	for _, f := range files {
		old, err := readJSON(f)
		if err != nil || old.Part == part {
			continue
		}
		what := "every part"
		if old.Part != "" {
			what = old.Part
		}
		suffix := "all"
		if part != "" {
			suffix = strings.ToLower(part)
		}
		return fmt.Errorf("%w: --out %s holds grades of %s (%s): grading %s into it would replace every one of them; give it a folder of its own (OUT=%s-%s), or remove %s first",
			errUsage, out, what, f, partName(part), filepath.Clean(out), suffix, out)
	}
	return nil
}

// partName says which parts a grading grades.
func partName(part string) string {
	if part == "" {
		return "every part"
	}
	return part
}

// gradeItems grades the items, o.jobs at once, each worker in a port
// range of its own, printing a progress line for each; once ctx is done
// no item is started.
func gradeItems(ctx context.Context, root string, o options, items []batchItem, log io.Writer) {
	var mu sync.Mutex
	done := 0
	work := make(chan int)
	var wg sync.WaitGroup
	for slot := range o.jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			so := o
			so.ports = fmt.Sprintf("%d-%d", 20000+slot*1000, 20999+slot*1000)
			for i := range work {
				it := &items[i]
				if ctx.Err() != nil {
					continue // interrupted before it started: not reached
				}
				it.rep, it.skipped = gradeItem(ctx, root, so, it)
				it.interrupted = it.rep == nil
				mu.Lock()
				done++
				fmt.Fprintf(log, "[%d/%d] %s\n", done, len(items), visible(progressLine(it)))
				mu.Unlock()
			}
		}()
	}
	for i := range items {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
}

// interrupted ends a batch that ctx stopped: the gradebook still matches
// the reports (this batch's grades, and the last recorded grade of those
// it did not reach), and the console names what is left.
func interrupted(ctx context.Context, o options, items []batchItem, book string, log io.Writer) error {
	n := lastGrades(o.out, o.ref, items)
	if err := writeGradebook(book, items); err != nil {
		return errors.Join(fmt.Errorf("interrupted: %w", ctx.Err()), err)
	}
	none := ungraded(items)
	fmt.Fprintf(log, "mwzk-grade: interrupted: wrote %s: %s; %d row(s) hold the grade of an earlier batch (their note says so), %d hand-in(s) have none yet%s: run the same command again to grade them\n",
		book, statusCounts(items), n, len(none), visible(listed(none)))
	return fmt.Errorf("interrupted: %w", ctx.Err())
}

// listed is " (a, b)" for the names given, "" for none.
func listed(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ", ") + ")"
}

// lastGrades gives the items an interrupted batch did not grade the grade
// recorded in their folder by an earlier batch, if any; it returns how
// many it found. Such an item counts as skipped: its files may have
// changed since.
func lastGrades(out, ref string, items []batchItem) int {
	n := 0
	for i := range items {
		it := &items[i]
		if it.rep != nil {
			continue
		}
		if old, err := readJSON(filepath.Join(out, it.name, "grade.json")); err == nil {
			it.rep, it.skipped, it.earlier = old, true, true
			it.changed = handInChanged(it.path, ref, old)
			n++
		}
	}
	return n
}

// handInChanged says whether the hand-in at path now has other files than
// the ones old graded (ref: the batch's REF, for a git repository); one
// that cannot be read counts as changed.
func handInChanged(path, ref string, old *Report) bool {
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() || gitDir(path) == "" {
		ref = ""
	}
	sub, err := loadSubmission(path, ref)
	return err != nil || sub.sha256() != old.SHA256
}

// ungraded names the items without any grade.
func ungraded(items []batchItem) []string {
	var out []string
	for _, it := range items {
		if it.rep == nil {
			out = append(out, it.name)
		}
	}
	return out
}

// statusCounts says how many submissions ended how ("3 graded, 1
// refused"), so that the hand-ins needing a look show at the end of a
// long batch.
func statusCounts(items []batchItem) string {
	n := map[string]int{}
	for _, it := range items {
		if it.rep != nil {
			n[it.rep.Status]++
		}
	}
	var parts []string
	for _, st := range []string{"graded", "timeout", "compile-error", "refused", "error"} {
		if n[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
			delete(n, st)
		}
	}
	for _, st := range slices.Sorted(maps.Keys(n)) { // none today; a new status still counts
		parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
	}
	if len(parts) == 0 {
		return "no grades" // an interrupted first batch
	}
	return strings.Join(parts, ", ")
}

// listSubmissions lists the folder's entries, in name order, but hidden
// ones: archives, folders and repositories, and any other file too, so
// that an upload of a kind the grader does not read (a .rar) is a refused
// row of the gradebook rather than a student missing from it.
func listSubmissions(dir string) (items []batchItem, texts []string, err error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--submissions: %w", err)
	}
	seen := map[string]string{}
	uploads := map[string]bool{} // platform prefixes ("Name_1234_") with another entry
	for _, de := range des {
		if p, ok := platformPrefix(de.Name()); ok && !onlineText(de.Name()) {
			uploads[p] = true
		}
	}
	for _, de := range des {
		n := de.Name()
		if strings.HasPrefix(n, ".") || macMetadata(n) { // Finder's __MACOSX/ too
			continue
		}
		if p, _ := platformPrefix(n); onlineText(n) && uploads[p] {
			texts = append(texts, n)
			continue
		}
		name := submissionName(n)
		if strings.EqualFold(name, gradebookFile) {
			// Its report folder would take the gradebook's place, and
			// the whole class's gradebook would be lost.
			name += " (hand-in)"
		}
		if _, dup := seen[name]; dup {
			// carol/ beside carol.zip: both are graded, the later one
			// under its whole entry name, for the instructor to choose;
			// numbered where even that is taken (gradebook.csv's rename).
			name = n
			for k := 2; seen[name] != ""; k++ {
				name = fmt.Sprintf("%s (%d)", n, k)
			}
		}
		seen[name] = n
		items = append(items, batchItem{name: name, path: filepath.Join(dir, n)})
	}
	if len(items) == 0 {
		return nil, nil, fmt.Errorf("--submissions %s: nothing in it (archives %s, folders or repositories)", dir, archiveKinds)
	}
	return items, texts, nil
}

// onlineText says whether a folder of a course platform's export holds a
// student's online text (Moodle: "Name_1234_assignsubmission_onlinetext_"):
// beside the same student's upload it is left out, as a row of its own
// would be a second, refused grade for them; alone it stays a refused row,
// so the student is not missing from the gradebook.
func onlineText(name string) bool {
	return strings.HasSuffix(strings.ToLower(name), "_onlinetext_")
}

// platformPrefix is the student part of a Moodle export's folder name
// ("Name_1234_" of "Name_1234_assignsubmission_file_").
func platformPrefix(name string) (string, bool) {
	i := strings.Index(strings.ToLower(name), "_assignsubmission_")
	if i < 0 {
		return "", false
	}
	return name[:i+1], true
}

// gradeItem grades one submission unless its last grade still holds, and
// writes its reports.
func gradeItem(ctx context.Context, root string, o options, it *batchItem) (*Report, bool) {
	dir := filepath.Join(o.out, it.name)
	recoverPictures(filepath.Join(dir, "pictures"))
	ref := "" // REF (a deadline's tag) is for the class's git repositories
	if fi, err := os.Stat(it.path); err == nil && fi.IsDir() && gitDir(it.path) != "" {
		ref = o.ref
	}
	sub, err := loadSubmission(it.path, ref)
	if onlineText(filepath.Base(it.path)) {
		// A student who handed in only a text (the text beside an upload
		// is left out before): a row, with the reason in its words.
		sub, err = nil, fmt.Errorf("%w: %s is a course platform's online text, no file upload: nothing to grade",
			errRefused, filepath.Base(it.path))
	}
	if err == nil && o.ref != "" && ref == "" {
		sub.Ignored = append(sub.Ignored, fmt.Sprintf("REF=%s: this hand-in is no git repository; graded as it is", o.ref))
	}
	if err == nil {
		if old, ok := upToDate(root, o, dir, sub); ok {
			return old, true
		}
	}
	var rep *Report
	switch {
	case err != nil: // unreadable or unsafe: nothing of it is graded
		rep = refusedReport(root, o, it, err)
		// The pictures there were the last hand-in's; a refusal has none.
		if rerr := os.RemoveAll(filepath.Join(dir, "pictures")); rerr != nil {
			rep.Problems = append(rep.Problems, "removing the last grading's pictures: "+rerr.Error())
		}
	default:
		sub.Name = it.name
		o = o.forHandIn(it.path, ref)
		o.pictures, o.picturesBase = filepath.Join(dir, "pictures"), dir
		restore := setAside(o.pictures)
		rep, err = gradeSubmission(ctx, root, o, sub, io.Discard)
		if restore(cutShort(ctx, rep)) {
			// Stopped by the batch's interrupt, not by its own time
			// limit: nothing of this run says anything about the code,
			// and the last grade stays with the pictures it links to.
			return nil, false
		}
		if rep != nil {
			tidyPictures(rep, o.pictures)
		}
		if rep == nil || rep.Status == "" {
			rep = refusedReport(root, o, it, err)
			rep.Status = "error"
		}
	}
	if err := writeReports(dir, rep); err != nil {
		rep.Problems = append(rep.Problems, "writing the reports: "+err.Error())
	}
	return rep, false
}

// cutShort says whether the batch's interrupt may have changed this
// grading. A grading that had ended before it keeps its grade, so that an
// interrupt landing just after a hand-in finished does not throw its
// minutes of work away: graded (the grader's checks of the context make a
// run the interrupt cut a timeout) or a compile error (likewise). Not a
// refusal: git, which some checks ask, can die of the same Ctrl-C, and a
// refusal costs no time to make again.
func cutShort(ctx context.Context, rep *Report) bool {
	if ctx.Err() == nil {
		return false
	}
	return rep == nil || rep.Status != "graded" && rep.Status != "compile-error"
}

// recoverPictures puts back the last grade's pictures that setAside moved
// to dir.last, where a grader killed while it graded (SIGKILL, a power
// cut) left them: that grading recorded nothing, so the grade on record is
// the last one, and its report links into dir.
func recoverPictures(dir string) {
	kept := dir + ".last"
	if _, err := os.Lstat(kept); err != nil {
		return
	}
	os.RemoveAll(dir) // the killed run's, partial
	os.Rename(kept, dir)
}

// setAside moves the folder dir (the last grade's pictures, which grading
// empties) aside; the function it returns puts it back if back is true,
// else drops it, and returns back.
func setAside(dir string) func(back bool) bool {
	kept := dir + ".last"
	os.RemoveAll(kept)
	moved := os.Rename(dir, kept) == nil
	return func(back bool) bool {
		switch {
		case back:
			os.RemoveAll(dir) // the interrupted run's, partial
			if moved {
				os.Rename(kept, dir)
			}
		case moved:
			os.RemoveAll(kept)
		}
		return back
	}
}

// refusedReport is the report of a submission that could not be read.
func refusedReport(root string, o options, it *batchItem, err error) *Report {
	// Timeout and Extra too: its report's "again" command grades it as the
	// batch did, as every other report of the batch says.
	rep := &Report{Submission: it.name, Origin: it.path, Status: "refused", Repeat: o.repeat, Part: o.part,
		Timeout: o.timeout.String(), Extra: o.extra, Race: o.race, Grader: graderVersion(root), GoVersion: goVersion()}
	if o.ref != "" && gitDir(it.path) != "" {
		// REF too, for a repository: without it "again" grades its HEAD.
		rep.Ref = o.ref
	}
	rep.Problems = []string{strings.TrimPrefix(err.Error(), errRefused.Error()+": ")}
	rep.GraderTree, _ = graderTreeHash(root, o.extra, o.leave()...)
	score(rep, nil, o.part)
	return rep
}

// upToDate returns the submission's last grade if it was made from the same
// files, by the same grader tree, with the same settings.
func upToDate(root string, o options, dir string, sub *submission) (*Report, bool) {
	old, err := readJSON(filepath.Join(dir, "grade.json"))
	if err != nil || old.SHA256 != sub.sha256() || old.Repeat != o.repeat || old.Part != o.part ||
		old.Extra != o.extra || old.Race != o.race || old.Status == "error" || old.GraderTree == "" || old.Unconfined && !o.noSandbox ||
		old.Status == "timeout" && old.Timeout != o.timeout.String() {
		// An unconfined grade is graded again once a sandbox can be had,
		// a timeout when the time per run changed (TIMEOUT raised).
		return nil, false
	}
	h, err := graderTreeHash(root, o.extra, o.leave()...)
	return old, err == nil && h == old.GraderTree
}

// writeReports writes grade.json, report.txt and report.html into dir.
func writeReports(dir string, rep *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeJSON(rep, filepath.Join(dir, "grade.json")); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "report.txt"))
	if err != nil {
		return err
	}
	printReport(f, rep)
	if err := f.Close(); err != nil {
		return err
	}
	return writeHTML(filepath.Join(dir, "report.html"), rep)
}

func progressLine(it *batchItem) string {
	if it.interrupted {
		return it.name + ": interrupted: not recorded (its last grade, if any, stays; the next run grades it)"
	}
	r := it.rep
	s := fmt.Sprintf("%s: %s", it.name, r.Status)
	if r.Status == "graded" || r.Status == "timeout" {
		s += " " + shortTotals(r)
	}
	if n := reportNote(r); n != "" {
		s += ": " + n
	}
	if it.skipped {
		return s + " (unchanged since the last grading: not graded again)"
	}
	return s + fmt.Sprintf(" (%.0f s)", r.Seconds)
}

// seenByGoTool says whether dir lies in root's module where the go
// command's ./... looks: not below a folder whose name starts with _ or
// ., or is testdata.
func seenByGoTool(root, dir string) (string, bool) {
	rel, err := filepath.Rel(realPath(root), realPath(dir))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(part, "_") || strings.HasPrefix(part, ".") || part == "testdata" {
			return "", false
		}
	}
	// ./... stops at a module of its own on the way (a go.mod), and at vendor.
	at := realPath(root)
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		at = filepath.Join(at, part)
		if _, err := os.Stat(filepath.Join(at, "go.mod")); err == nil || part == "vendor" {
			return "", false
		}
	}
	return rel, true
}
