package main

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"zablab/mwzookeeper/conformance"
)

// events builds go test -json lines for tests of the suite.
func events(results map[string]string) string {
	var b strings.Builder
	for name, action := range results {
		b.WriteString(`{"Action":"output","Test":"TestConformance/` + name + `","Output":"    x.go:1: A5 something broke\n"}` + "\n")
		if action != "" {
			b.WriteString(`{"Action":"` + action + `","Test":"TestConformance/` + name + `"}` + "\n")
		}
	}
	return b.String()
}

// fakeRun is a run whose go test events and signed results are given
// (a missing signed result: "" in sealed).
func fakeRun(evs, sealed map[string]string) *run {
	r := &run{tests: map[string]*outcome{}, sealed: map[string]sealedResult{}}
	parseEvents(strings.NewReader(events(evs)), r)
	for _, ts := range conformance.Tests() {
		r.manifest = append(r.manifest, manifestTest{ts.Part, ts.Name, ts.Points, false})
	}
	for name, st := range sealed {
		if st != "" {
			r.sealed[name] = sealedResult{status: st, count: 1}
		}
	}
	return r
}

func allTests(status string) map[string]string {
	m := map[string]string{}
	for _, ts := range conformance.Tests() {
		m[ts.Part+"/"+ts.Name] = status
	}
	return m
}

func TestScoreGivesPointsOnlyForTestsPassingInEveryRun(t *testing.T) {
	all := allTests("pass")
	first := fakeRun(all, all)
	name := conformance.Tests()[0].Part + "/" + conformance.Tests()[0].Name
	second := fakeRun(all, allTests("pass"))
	second.sealed[name] = sealedResult{status: "fail", count: 1}
	second.tests[name].status = "fail"
	var rep Report
	score(&rep, []*run{first, second}, "")
	if rep.Required.Possible != 100 || rep.Bonus.Possible != 20 || rep.Bonus.Earned != 20 {
		t.Fatalf("required %+v bonus %+v, want 100 possible and a full bonus", rep.Required, rep.Bonus)
	}
	if rep.Required.Earned != 100-conformance.Tests()[0].Points {
		t.Fatalf("required %d, want all but %s", rep.Required.Earned, name)
	}
	if st := rep.Parts[0].Tests[0].Status; st != "flaky" {
		t.Fatalf("status of %s: %q, want flaky", name, st)
	}
}

// TestOnlySignedPassesCount: go test's own events alone earn nothing (a
// submission can print them), nor does a signed pass that go test's events
// contradict; a test reported twice earns nothing.
func TestOnlySignedPassesCount(t *testing.T) {
	all := allTests("pass")
	unsigned := fakeRun(all, nil)
	unsigned.finish(context.Background(), "")
	var rep Report
	score(&rep, []*run{unsigned}, "")
	if rep.Required.Earned != 0 || rep.Bonus.Earned != 0 {
		t.Fatalf("go test events without signed results earned %d+%d", rep.Required.Earned, rep.Bonus.Earned)
	}
	if len(rep.Problems) == 0 || !strings.Contains(strings.Join(rep.Problems, " "), "no signed result") {
		t.Fatalf("problems %q, want the missing signed results named", rep.Problems)
	}
	contradicted := fakeRun(allTests("fail"), all)
	rep = Report{}
	score(&rep, []*run{contradicted}, "")
	if rep.Required.Earned != 0 {
		t.Fatalf("signed passes against failing events earned %d", rep.Required.Earned)
	}
	twice := fakeRun(all, all)
	for k, s := range twice.sealed {
		s.count = 2
		twice.sealed[k] = s
	}
	twice.finish(context.Background(), "")
	rep = Report{}
	score(&rep, []*run{twice}, "")
	if rep.Required.Earned != 0 || !strings.Contains(strings.Join(rep.Problems, " "), "more than one result") {
		t.Fatalf("results reported twice: %d points, problems %q", rep.Required.Earned, rep.Problems)
	}
}

func TestScoreOfAPart(t *testing.T) {
	var multi []string
	for _, ts := range conformance.Tests() {
		if ts.Part == "A5.7" {
			multi = append(multi, "A5.7/"+ts.Name)
		}
	}
	res := map[string]string{multi[0]: "pass", multi[1]: "fail"}
	r := fakeRun(res, res)
	var rep Report
	score(&rep, []*run{r}, "A5.7")
	if len(rep.Parts) != 1 || rep.Bonus.Possible != 5 || rep.Required.Possible != 0 || rep.Bonus.Earned == 0 || rep.Bonus.Earned == 5 {
		t.Fatalf("parts %d, bonus %+v, required %+v", len(rep.Parts), rep.Bonus, rep.Required)
	}
	if f := rep.Parts[0].Tests[1].Failure; len(f) != 1 || !strings.Contains(f[0], "something broke") {
		t.Fatalf("failure lines %q", f)
	}
}

func TestListNamesEveryTestAndRunsNothing(t *testing.T) {
	var out strings.Builder
	ctx := context.Background()
	if err := mainErr(ctx, []string{"--list"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, ts := range conformance.Tests() {
		if !strings.Contains(out.String(), ts.Name) {
			t.Errorf("--list does not name %s/%s:\n%s", ts.Part, ts.Name, out.String())
		}
	}
	if err := mainErr(ctx, []string{"--part", "A5.9"}, &out); !errors.Is(err, errUsage) {
		t.Errorf("--part A5.9: %v, want a usage error", err)
	}
	o := options{impl: "assignment", repeat: 1, jobs: 1, part: "a5.2", timeout: time.Minute}
	if err := o.check(); err != nil || o.part != "A5.2" {
		t.Errorf("--part a5.2: %v, part %q; want A5.2", err, o.part)
	}
}

// TestSilentEndIsReported: a suite killed by a signal before it printed a
// line still leaves a problem that says how it ended.
func TestSilentEndIsReported(t *testing.T) {
	killed := exec.Command("sh", "-c", "kill -SEGV $$").Run()
	failed := exec.Command("sh", "-c", "exit 1").Run()
	if killed == nil || failed == nil {
		t.Fatalf("sh: killed %v, failed %v; want both errors", killed, failed)
	}
	got := otherProblems(&run{exitErr: killed, other: []string{"", "FAIL"}})
	if len(got) != 1 || !strings.Contains(got[0], "segmentation fault") {
		t.Errorf("problems of a silent end: %q; want one naming the signal", got)
	}
	for _, r := range []*run{{}, {exitErr: failed, other: []string{"FAIL"}}} {
		if got := otherProblems(r); len(got) != 0 {
			t.Errorf("problems of a run that ended well or with failing tests (%v): %q", r.exitErr, got)
		}
	}
}

// TestCrashNote: the gradebook's note of a graded run that ended early
// says why: out of memory, or the first line after "no manifest" (a
// panic in an init); nothing for a run that ended normally.
func TestCrashNote(t *testing.T) {
	for _, c := range []struct {
		problems []string
		want     string
	}{
		{[]string{noManifest, "panic: boom in init"}, "the tests never started: panic: boom in init"},
		{[]string{noManifest, outOfMemory + ": the sandbox gives 2048 MiB, in init.0 (leak.go:9)", "fatal error: runtime: out of memory"},
			outOfMemory + ": the sandbox gives 2048 MiB, in init.0 (leak.go:9)"},
		{[]string{"run 2: " + outOfMemory + ": x"}, outOfMemory + ": x"},
		{[]string{"no signed result (did not finish): A5.1/Session"}, ""},
		{nil, ""},
	} {
		if got := crashNote(&Report{Problems: c.problems, Repeat: 1}); got != c.want {
			t.Errorf("crashNote(%q) = %q, want %q", c.problems, got, c.want)
		}
	}
}

// TestCrashNamesTheRunningTest: a run that died of a fatal error (a
// concurrent map write) blames the test that was running, with the error
// and the graded line, and lists the tests after it as not started rather
// than "not finished" without a reason.
func TestCrashNamesTheRunningTest(t *testing.T) {
	tests := conformance.Tests()
	ran, running, after := tests[0], tests[1], tests[2]
	name := func(ts conformance.Test) string { return ts.Part + "/" + ts.Name }
	r := fakeRun(map[string]string{name(ran): "pass", name(running): ""}, map[string]string{name(ran): "pass"})
	r.exitErr = errors.New("exit status 2")
	r.other = []string{"fatal error: concurrent map read and map write", "", "goroutine 41 [running]:",
		gradedPkg + ".(*Service).read(0xc000120000)", "\t/tmp/x/assignments/aufgabe5/reads.go:51 +0x45",
		gradedPkg + ".(*Service).submitLocal(0xc000120000)", "\t/tmp/x/assignments/aufgabe5/service.go:90 +0x45",
		"", "goroutine 42 [select]:", gradedPkg + ".(*Service).loop(0xc000120000)", "\t/tmp/x/assignments/aufgabe5/loop.go:9 +0x45"}
	got := gradeTest([]*run{r}, manifestTest{running.Part, running.Name, running.Points, false})
	want := "the suite crashed while this test ran: fatal error: concurrent map read and map write, in (*Service).read (reads.go:51) ← (*Service).submitLocal (service.go:90)"
	if got.Status != "not finished" || len(got.Failure) == 0 || got.Failure[0] != want {
		t.Errorf("the running test: status %q, failure %q; want not finished with %q first", got.Status, got.Failure, want)
	}
	if got := gradeTest([]*run{r}, manifestTest{after.Part, after.Name, after.Points, false}); got.Status != "not started" {
		t.Errorf("a test after the crash: status %q, want not started", got.Status)
	}
	if got := gradeTest([]*run{r}, manifestTest{ran.Part, ran.Name, ran.Points, false}); got.Status != "pass" {
		t.Errorf("the test before the crash: status %q, want pass", got.Status)
	}
}
