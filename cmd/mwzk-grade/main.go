package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"zablab/internal/procs"
	"zablab/mwzookeeper/conformance"
)

// options are mwzk-grade's flags.
type options struct {
	impl        string // assignment or solution: the checkout's folder graded without --submission
	submission  string // an archive, folder or git repository
	ref         string // the commit of a git submission
	submissions string // a folder of submissions (batch)
	out         string // the batch's output folder
	handIns     string // the batch's hand-ins folder, kept for leave when grading one of them
	jobs        int
	repeat      int
	part        string
	json        string
	variant     string
	extra       string
	replay      string
	timeout     time.Duration // per run: a submission gets total()
	timeoutSet  bool          // --timeout given: a replay keeps it, else takes the recorded one
	list        bool
	checkCode   bool
	run         string
	noSandbox   bool // run the graded code unconfined (sandbox.go)
	race        bool // compile the suite with the race detector and halt a run at its first report (race.go)

	seeds []map[string]int64 // per run (replay)
	ports string             // MWZK_PORTS for the suite

	seed         string // MWZK_SEED of a single grading: every randomized test runs with it
	pictures     string // the folder for failing tests' pages (pictures.go); "" for none
	picturesBase string // the folder the report's picture paths are relative to
	// sharedUnchecked grades code that the refusal of shared state
	// (sharedState) would refuse: tests whose probes reach the files
	// through the allowed packages, to prove the sandbox. No flag sets it.
	sharedUnchecked bool
}

// defaultTimeout is a run's time unless --timeout (TIMEOUT) says otherwise.
const defaultTimeout = 15 * time.Minute

// errUsage is a bad command line.
var errUsage = errors.New("usage")

// errInterrupted: Ctrl-C or SIGTERM stopped a grading, which is no grade.
var errInterrupted = errors.New("interrupted")

func main() {
	if len(os.Args) > 1 && os.Args[1] == sandboxArg {
		os.Exit(sandboxMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == limitArg {
		os.Exit(limitMain(os.Args[2:]))
	}
	ctx, stop := interruptContext()
	err := mainErr(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-grade:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// interruptContext is done on Ctrl-C or SIGTERM, and when the `go run`
// that started the grader dies (procs.StopWithGoRun); a batch then ends as
// interrupted, its gradebook written.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	procs.StopWithGoRun() // after the handler: a SIGTERM it sends at once is caught
	return ctx, stop
}

func newFlags(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet("mwzk-grade", pflag.ContinueOnError)
	fs.StringVar(&o.impl, "impl", "assignment", "without --submission, grade the checkout's assignments/aufgabe5 (assignment) or solutions/aufgabe5 (solution)")
	fs.StringVar(&o.submission, "submission", "", "grade one submission: a .tar.gz/.tgz/.zip archive, a folder or a git repository")
	fs.StringVar(&o.ref, "ref", "", "the commit, branch or tag of a git --submission (default HEAD)")
	fs.StringVar(&o.submissions, "submissions", "", "grade every entry of this folder (archives, folders, git repositories) and write a gradebook")
	fs.StringVar(&o.out, "out", "grades", "with --submissions: the output folder (gradebook.csv, one folder per submission)")
	fs.IntVarP(&o.jobs, "jobs", "j", 1, "with --submissions: grade this many submissions at once")
	fs.IntVar(&o.repeat, "repeat", 1, "run the suite N times; a test that fails in any run earns nothing")
	fs.StringVar(&o.part, "part", "", "grade only this part, e.g. A5.2 (any case)")
	fs.StringVar(&o.json, "json", "", "write the grade as JSON here (default grade.json, grade-A5.2.json with --part; \"-\" for none)")
	fs.StringVar(&o.variant, "variant", "", "grade a known-bad or allowed variant of the reference: a diff under solutions/variants/")
	fs.StringVar(&o.extra, "extra", "", "a folder of hidden tests (package conformance, build tag mwzk_extra) graded with the suite")
	fs.StringVar(&o.replay, "replay", "", "grade again exactly as this grade.json says and tell whether the result matches")
	fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "time for one run of a submission; with --repeat n a submission gets n times this")
	fs.BoolVar(&o.list, "list", false, "list the parts and tests with their points, and run nothing")
	fs.BoolVar(&o.checkCode, "check-code", false, "only check the checkout's graded code as grading does (imports, directives), and run nothing")
	fs.StringVar(&o.run, "run", "", "with --check-code and --part: check that the part has a test of this name (make grade-a5.N RUN=...)")
	fs.BoolVar(&o.race, "race", true, "compile the suite with the race detector: a run stops at the first data race, its unfinished tests earn nothing; --race=false (make grade RACE=0) grades without, where a data race can rewrite the suite")
	fs.BoolVar(&o.noSandbox, "no-sandbox", false, "run the graded code with your own rights, not in a sandbox (where Linux namespaces are not allowed)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "mwzk-grade grades MWZooKeeper Services with the conformance suite.\n\nUsage:\n"+
			"  mwzk-grade [--impl assignment|solution] [--part A5.2] [--repeat N]   the checkout's own code\n"+
			"  mwzk-grade --submission PATH [--ref REF]                            one hand-in\n"+
			"  mwzk-grade --submissions DIR [--out OUT] [-j N]                     a class\n"+
			"  mwzk-grade --replay grade.json                                      a grading again\n\nFlags:\n%s", fs.FlagUsages())
	}
	return fs
}

func mainErr(ctx context.Context, args []string, stdout io.Writer) (err error) {
	defer func() {
		if err != nil {
			err = shownError{err}
		}
	}()
	var o options
	fs := newFlags(&o)
	fs.SetOutput(stdout)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: %w (mwzk-grade --help lists the flags)", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if o.list {
		printTests(stdout)
		return nil
	}
	o.timeoutSet = fs.Changed("timeout")
	if o.variant != "" && !fs.Changed("impl") {
		o.impl = "solution"
	}
	if err := o.check(); err != nil {
		return err
	}
	if err := checkMakeVars(o, os.Getenv("MAKEFLAGS")); err != nil {
		return err
	}
	if err := o.variantRace(fs.Changed("race"), stdout); err != nil {
		return err
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if o.checkCode {
		return checkCheckout(root, o, stdout)
	}
	if wd, _ := os.Getwd(); o.json == "" && wd != root {
		// Started from a subfolder (assignments/aufgabe5, say): the grade
		// goes beside go.mod, not into the folder a student then packs.
		o.json = filepath.Join(root, o.jsonFile())
	}
	switch {
	case o.replay != "":
		return replay(ctx, root, o, stdout)
	case o.submissions != "":
		if _, err := sandboxPolicy(&o, nil); err != nil {
			return err // before any hand-in, not once for each
		}
		return gradeBatch(ctx, root, o, stdout)
	}
	return gradeOne(ctx, root, o, stdout)
}

func (o *options) check() error {
	if _, ok := implDirs[o.impl]; !ok {
		return fmt.Errorf("%w: --impl %q: want assignment or solution", errUsage, o.impl)
	}
	if o.repeat < 1 {
		return fmt.Errorf("%w: --repeat %d: want at least 1", errUsage, o.repeat)
	}
	if o.timeout <= 0 || o.timeout > time.Duration(math.MaxInt64)/time.Duration(o.repeat) {
		return fmt.Errorf("%w: --timeout %v with --repeat %d: want a positive time whose %d-fold fits", errUsage, o.timeout, o.repeat, o.repeat)
	}
	if o.jobs < 1 {
		return fmt.Errorf("%w: -j %d: want at least 1", errUsage, o.jobs)
	}
	if o.submission != "" && o.submissions != "" {
		return fmt.Errorf("%w: --submission and --submissions: one or the other", errUsage)
	}
	if o.ref != "" && o.submission == "" && o.submissions == "" {
		return fmt.Errorf("%w: --ref %s needs --submission (a git repository) or --submissions (for the git repositories among them)", errUsage, o.ref)
	}
	if o.part != "" {
		for _, p := range conformance.Parts() {
			if strings.EqualFold(p.ID, o.part) {
				o.part = p.ID
				return nil
			}
		}
		return fmt.Errorf("%w: --part %q: want one of A5.1 ... A5.7", errUsage, o.part)
	}
	return nil
}

// variantRace grades a variant as its preamble says unless --race was
// given: under the race detector where it loses its parts only there
// ("Race: yes"), without it otherwise, since the variants' preambles
// describe behaviour and a benign race of a diff is not what they test.
// An explicit --race=false grades a "Race: yes" variant without, as a
// hand-in graded with RACE=0, where it must keep every point.
func (o *options) variantRace(given bool, stdout io.Writer) error {
	if o.variant == "" || given || o.replay != "" {
		return nil
	}
	v, err := loadVariant(o.variant)
	if err != nil {
		return err
	}
	o.race = v.race
	if v.race {
		fmt.Fprintf(stdout, "mwzk-grade: %s says \"Race: yes\": graded under the race detector (--race)\n", o.variant)
	}
	return nil
}

// total is a submission's time: --timeout per run, as the README's
// TIMEOUT (make grade-all always passes --timeout, and as a limit for all
// runs it gave run 6 of REPEAT=8 under a second: a correct hand-in earned
// 0 points). A replay takes the recorded REPEAT, so this is worked out
// where the time starts, never stored.
func (o options) total() time.Duration {
	r := time.Duration(max(o.repeat, 1))
	if o.timeout > time.Duration(math.MaxInt64)/r {
		return time.Duration(math.MaxInt64)
	}
	return o.timeout * r
}

// leave are the paths of hand-ins and reports, which are not the
// grader's files even where they sit in its checkout (graderFiles).
func (o options) leave() []string {
	return []string{o.submissions, o.handIns, o.out, o.submission}
}

// shownError is err with the control characters of its text escaped: a
// refusal names a hand-in's entries as they are, and main prints it to a
// terminal.
type shownError struct{ err error }

func (e shownError) Error() string { return visible(e.err.Error()) }
func (e shownError) Unwrap() error { return e.err }

// gradeOne grades the checkout's own code or one --submission, prints the
// report and writes grade.json. A refused submission, one that does not
// compile or does not finish is an error (exit 1) after its report.
func gradeOne(ctx context.Context, root string, o options, stdout io.Writer) error {
	var sub *submission
	var err error
	if o.submission != "" {
		sub, err = loadSubmission(o.submission, o.ref)
	} else {
		sub, err = checkoutSubmission(root, o)
	}
	if err != nil {
		if errors.Is(err, errRefused) {
			return refuseOne(root, o, err, stdout)
		}
		return err
	}
	fmt.Fprintf(stdout, "mwzk-grade: grading %s (%d files) in a fresh copy of the grader's tree …\n", sub.Name, len(sub.Files))
	if o.seed = os.Getenv("MWZK_SEED"); o.seed != "" {
		fmt.Fprintf(stdout, "mwzk-grade: MWZK_SEED=%s: every randomized test runs with this seed\n", o.seed)
	}
	if o.pictures, o.picturesBase, err = picturesDir(o.jsonFile()); err != nil {
		return err
	}
	warmCache(ctx, root, o.race, stdout)
	rep, gerr := gradeSubmission(ctx, root, o, sub, stdout)
	if rep != nil {
		tidyPictures(rep, o.pictures)
	}
	if ctx.Err() != nil {
		// Stopped by Ctrl-C or SIGTERM, not by the time limit: a student's
		// make grade stopped after 12 s was reported as a 15-minute timeout
		// in grade.json, the file they are told to quote.
		kept := ""
		if file := o.jsonFile(); file != "" {
			kept = "; " + file + " is left as it was"
		}
		return fmt.Errorf("%w: %s was not graded%s", errInterrupted, sub.Name, kept)
	}
	if rep != nil && (gerr == nil || rep.Status != "") {
		printReport(stdout, rep)
		if file := o.jsonFile(); file != "" {
			if err := writeJSON(rep, file); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "\nwrote %s\n", file)
		}
	}
	verr := judgeVariant(o, rep, stdout)
	switch {
	case gerr == nil:
		return verr
	case rep == nil || rep.Status == "":
		return gerr
	}
	return errors.Join(fmt.Errorf("%s: %s", sub.Name, rep.Status), verr)
}

// judgeVariant ends the report of a --variant (make grade-variant) with
// whether each line of its preamble held: the instructor writing a new
// variant learns it here, not only from the variants test. A grading that
// ran no test (refused, not compiled) has nothing to judge.
func judgeVariant(o options, rep *Report, stdout io.Writer) error {
	if o.variant == "" || rep == nil || (rep.Status != "graded" && rep.Status != "timeout") {
		return nil
	}
	v, err := loadVariant(o.variant)
	if err != nil {
		return err
	}
	return printVerdicts(stdout, v, *rep)
}

// refuseOne ends a single grading whose --submission could not be read
// (not an archive, an unsafe entry): its grade file gets the refusal, as a
// hand-in refused for its code does, so that it does not keep the last
// grading's result, another hand-in's.
func refuseOne(root string, o options, err error, stdout io.Writer) error {
	refusal := fmt.Errorf("refused: %s", strings.TrimPrefix(err.Error(), errRefused.Error()+": "))
	file := o.jsonFile()
	if o.submission == "" || file == "" {
		return refusal
	}
	rep := refusedReport(root, o, &batchItem{name: filepath.Base(o.submission), path: o.submission}, err)
	if werr := writeJSON(rep, file); werr != nil {
		return errors.Join(refusal, werr)
	}
	fmt.Fprintf(stdout, "wrote %s\n", file)
	// The pictures beside the grade file were the last grading's; a
	// refused hand-in has none.
	if dir, _, perr := picturesDir(file); perr == nil {
		if rerr := os.RemoveAll(dir); rerr != nil {
			return errors.Join(refusal, fmt.Errorf("pictures folder %s: %w", dir, rerr))
		}
	}
	return refusal
}

// jsonFile is where a single grading's JSON goes: --json, else grade.json,
// or grade-A5.2.json for one part, so a part's run keeps the whole grade.
func (o *options) jsonFile() string {
	switch {
	case o.json == "-":
		return ""
	case o.json != "":
		return o.json
	case o.part != "":
		return "grade-" + o.part + ".json"
	}
	return "grade.json"
}

// moduleRoot is the folder of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod in %s or above: run mwzk-grade inside the repository", dir)
		}
		d = up
	}
}

// forHandIn is o as for grading the one hand-in at origin (and ref): a
// batch and a replay load it themselves, and the replay lines must still
// name it, not the checkout.
func (o options) forHandIn(origin, ref string) options {
	o.handIns = cmp.Or(o.submissions, o.handIns)
	o.submissions, o.submission, o.ref = "", origin, ref
	return o
}

// replayCommand is the make command that grades the same code again, for
// the replay lines a failing test prints (conformance.ReplayEnv): the
// suite runs in a copy where the graded code sits in assignments/, which
// says nothing of where it came from.
func (o *options) replayCommand() string {
	switch {
	case o.variant != "":
		return "make grade-variant V=" + strings.TrimSuffix(filepath.Base(o.variant), ".diff") + raceWord(o.race)
	case o.submission != "" && o.ref != "":
		return fmt.Sprintf("make grade SUBMISSION=%s REF=%s", makeWord(o.submission), makeWord(o.ref)) + raceWord(o.race)
	case o.submission != "":
		return "make grade SUBMISSION=" + makeWord(o.submission) + raceWord(o.race)
	case o.impl == "solution":
		return "make grade IMPL=solution" + raceWord(o.race)
	}
	return "make grade" + raceWord(o.race)
}

// makeWord is s as the value of a variable on make's command line, in a
// shell: make expands "$" there, so it is doubled.
func makeWord(s string) string {
	return shellWord(strings.ReplaceAll(s, "$", "$$"))
}

// shellWord quotes s for a shell where it is more than a plain word: a
// course platform names its folders "Dave Miller_1234_assignsubmission_file_".
func shellWord(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:@%+=,-", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
