package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"zablab/internal/artifacts"
	"zablab/internal/gradeseal"
	"zablab/internal/ports"
	"zablab/mwzookeeper/conformance"
)

// noManifest is the problem of a run whose suite never said which tests
// it would run: it ended before its first test (a panic in an init, out
// of memory at start).
const noManifest = "the suite sent no signed manifest: no test result counts"

// sealEnv tells the suite the result pipe's descriptors (ExtraFiles).
const sealEnv = gradeseal.EnvVar + "=3,4"

// runSpec is one run of the suite's binary.
type runSpec struct {
	part     string           // "" for every part
	seeds    map[string]int64 // per test, to replay a grading
	timeout  time.Duration    // the binary's own -test.timeout: one run's time (--timeout)
	run      int              // which of runs this is, from 0
	runs     int              // how many runs share the submission's time (--repeat)
	ports    string           // MWZK_PORTS for this submission, "" for any
	pictures string           // ZABLAB_ARTIFACTS for this run, "" to leave it alone
	seed     string           // MWZK_SEED for every randomized test, "" for drawn seeds
	replay   string           // the make command that grades the same code again (conformance.ReplayEnv)
	jailed   bool             // run the binary in the sandbox (sandbox.go)
	race     bool             // the binary has the race detector: halt at its first report (race.go)
}

// runSuite runs the test binary once in t with a fresh key: results come
// signed through the result pipe, go test's events through test2json.
func runSuite(ctx context.Context, t *tree, bin string, spec runSpec) (*run, error) {
	key := make([]byte, gradeseal.KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	keyR, keyW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		keyR.Close()
		keyW.Close()
		return nil, err
	}
	// The key fits the pipe's buffer: write it and close, so the reader
	// sees it whole and then EOF.
	_, err = keyW.WriteString(hex.EncodeToString(key))
	keyW.Close()
	if err != nil {
		keyR.Close()
		resR.Close()
		resW.Close()
		return nil, err
	}
	own := spec.timeout
	if dl, ok := ctx.Deadline(); ok {
		// Whole hundredths: Go's report says the figure ("53.19s").
		spec.timeout = min(spec.timeout, suiteTimeout(time.Until(dl)).Truncate(10*time.Millisecond))
	}
	cmd, jr, err := suiteCommand(ctx, t, bin, spec)
	if err != nil {
		keyR.Close()
		resR.Close()
		resW.Close()
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{keyR, resW} // fds 3 and 4
	began := time.Now()
	r, err := startAndCollect(cmd, t, key, resR)
	var vouched map[string]string
	if err == nil {
		vouched = r.pages
	}
	problems := jr.finish(vouched) // also when the run failed: the sandbox's folders go
	if err != nil {
		resR.Close()
		return nil, err
	}
	r.problems = append(r.problems, problems...)
	r.goTimeout, r.took = spec.timeout, time.Since(began)
	r.limit = spec.limitNote(own)
	r.race = spec.race
	if spec.jailed {
		r.memCap = jailMemory
	}
	r.finish(ctx, spec.part)
	return r, nil
}

// limitNote says which limit the run's -test.timeout was, for the report
// of a run it stopped: its own --timeout, or less where the submission's
// time (--timeout for each of its runs) had less left when it began. Go
// says only the figure, and two runs of one hand-in stopped "after 1m0s"
// and "after 53.19s" with nothing to tell why.
func (s runSpec) limitNote(own time.Duration) string {
	if s.timeout >= own {
		return fmt.Sprintf("the run's own limit (--timeout %v)", own)
	}
	whole, before := fmt.Sprintf("%v", own), "the compile"
	if s.runs > 1 {
		whole = fmt.Sprintf("%v: %d runs of --timeout %v", own*time.Duration(s.runs), s.runs, own)
	}
	if s.run > 0 {
		before = "the compile and the runs before it"
	}
	return fmt.Sprintf("all that was left of the submission's time (%s) when this run began, less a margin for Go's timeout report: %s took the rest", whole, before)
}

// suiteCommand is the binary's command line, as go test would run it, in
// the sandbox if spec says so; jr.finish ends what the run's sandbox
// needed (a nil jr, unconfined, has nothing to end).
func suiteCommand(ctx context.Context, t *tree, bin string, spec runSpec) (cmd *exec.Cmd, jr *jailRun, err error) {
	pattern := suitePrefix
	if spec.part != "" {
		pattern += "^" + strings.ReplaceAll(spec.part, ".", `\.`) + "$/"
	}
	args := []string{"-test.v=test2json", "-test.count=1", "-test.paniconexit0",
		"-test.timeout=" + spec.timeout.String(), "-test.run=" + pattern}
	dir := filepath.Join(t.dir, gradedDir) // go test runs a test in its package's folder
	env := os.Environ()
	pictures := spec.pictures
	if spec.jailed {
		if jr, err = jailedSuite(ctx, dir, spec.pictures, bin, args, spec.race); err != nil {
			return nil, nil, err
		}
		cmd, pictures = jr.cmd, jr.pictures
		env = append(jailEnv(env), "TMPDIR="+jailTmp)
	} else {
		cmd = exec.CommandContext(ctx, bin, args...)
		inGroup(cmd)
		env = append(env, sealEnv)
	}
	cmd.Dir = dir
	env = append(env, "MWZK_GRADE=1", "MWZK_SEED="+spec.seed,
		conformance.ReplayEnv+"="+spec.replay)
	if spec.race {
		env = append(env, raceEnv) // after the grader's own environment: this one counts
	}
	if spec.ports != "" {
		env = append(env, ports.EnvRange+"="+spec.ports)
	}
	if pictures != "" {
		env = append(env, artifacts.Env+"="+pictures)
	}
	if len(spec.seeds) > 0 {
		var kv []string
		for k, v := range spec.seeds {
			kv = append(kv, fmt.Sprintf("%s=%d", k, v))
		}
		slices.Sort(kv)
		env = append(env, "MWZK_SEEDS="+strings.Join(kv, ","))
	}
	cmd.Env = env
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	return cmd, jr, nil
}

// startAndCollect starts cmd, feeds its output through test2json and reads
// the signed results until both end.
func startAndCollect(cmd *exec.Cmd, t *tree, key []byte, resR *os.File) (*run, error) {
	conv := helperCommand("go", "tool", "test2json", "-t", "-p", "zablab/"+strings.TrimSuffix(gradedDir, "/"))
	conv.Dir = t.dir
	binOut, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	conv.Stdin = binOut
	convOut, err := conv.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &headTail{head: stderrHead, tail: stderrTail}
	cmd.Stderr = stderr
	err = cmd.Start()
	// The child has its copies; ours must go, or the result pipe never
	// ends.
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("start the suite: %w", err)
	}
	if err := conv.Start(); err != nil {
		killGroup(cmd)
		cmd.Wait()
		return nil, fmt.Errorf("start go tool test2json: %w", err)
	}
	r := &run{tests: map[string]*outcome{}, sealed: map[string]sealedResult{}, pages: map[string]string{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r.readSealed(key, resR) }()
	parseEvents(convOut, r)
	r.exitErr = cmd.Wait()
	killGroup(cmd) // anything the run left behind
	conv.Wait()
	wg.Wait()
	resR.Close()
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if l != "" {
			r.other = append(r.other, l)
		}
	}
	return r, nil
}

// readSealed reads the result pipe: the manifest, then one result per
// test. Lines that are not signed with this run's key are counted as a
// problem and give nothing.
func (r *run) readSealed(key []byte, rd io.Reader) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	bad := 0
	for sc.Scan() {
		m, err := gradeseal.Verify(key, sc.Text())
		switch {
		case err != nil:
			bad++
		case m.Kind == "manifest" && r.manifest == nil:
			for _, e := range m.Manifest {
				r.manifest = append(r.manifest, manifestTest{e.Part, e.Name, e.Points, e.Extra})
			}
		case m.Kind == "page" && m.Page != nil:
			r.pages[m.Page.Path] = m.Page.SHA256
		case m.Kind == "result" && m.Result != nil:
			s := r.sealed[m.Result.Test]
			s.status, s.seed, s.count = m.Result.Status, m.Result.Seed, s.count+1
			r.sealed[m.Result.Test] = s
		default:
			bad++
		}
	}
	if err := sc.Err(); err != nil {
		// Read on: a suite blocked on this pipe would never finish.
		io.Copy(io.Discard, rd)
		r.problems = append(r.problems, fmt.Sprintf("the grader's result channel: %v: the rest was not read", err))
	}
	if bad > 0 {
		r.problems = append(r.problems, fmt.Sprintf("%d line(s) on the grader's result channel were not signed by the suite: ignored (did the graded code write there?)", bad))
	}
}

// finish checks the signed results against the manifest: every test of
// the graded part reported exactly once, nothing else.
func (r *run) finish(ctx context.Context, part string) {
	// Go's timeout report is read from the output the graded code shares:
	// it counts only when the binary died of it (a panic's exit status 2)
	// after its -test.timeout, as the report says.
	stuck, goTimedOut := findStuck(r.other)
	var ee *exec.ExitError
	r.timedOut = ctx.Err() != nil || goTimedOut && errors.As(r.exitErr, &ee) && ee.ExitCode() == 2 && r.goTimeoutHeld(stuck)
	if r.manifest == nil {
		r.problems = append(r.problems, noManifest)
		return
	}
	want := map[string]bool{}
	for _, m := range r.manifest {
		if part == "" || m.Part == part {
			want[m.Part+"/"+m.Name] = true
		}
	}
	var missing, extra, twice []string
	for name := range want {
		if _, ok := r.sealed[name]; !ok {
			missing = append(missing, name)
		}
	}
	for name, s := range r.sealed {
		switch {
		case !want[name]:
			extra = append(extra, name)
		case s.count > 1:
			twice = append(twice, name)
		}
	}
	for _, p := range []struct {
		what  string
		names []string
	}{{"no signed result (did not finish)", missing}, {"a result for a test the suite does not have", extra}, {"more than one result", twice}} {
		if len(p.names) > 0 {
			slices.Sort(p.names)
			r.problems = append(r.problems, fmt.Sprintf("%s: %s", p.what, strings.Join(p.names, ", ")))
		}
	}
}

// credited: the test passed by its signed result and by go test's events,
// and reported once. Anything else earns nothing.
func (r *run) credited(name string) bool {
	s, ok := r.sealed[name]
	o := r.tests[name]
	return ok && s.count == 1 && s.status == "pass" && o != nil && o.status == "pass"
}

// goTimeoutHeld says whether a timeout report in the output can be Go's:
// it names the run's -test.timeout, and the run lasted that long. A
// hand-in printed one after 3 s and panicked, and its grade.json said
// "timeout" with a story of a test stuck for 14 minutes (a red-team's).
func (r *run) goTimeoutHeld(stuck stuckReport) bool {
	after, err := time.ParseDuration(stuck.after)
	return err == nil && r.goTimeout > 0 && after == r.goTimeout && r.took >= r.goTimeout
}
