package main

import (
	"errors"
	"strings"
	"testing"

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

func TestScoreGivesPointsOnlyForTestsPassingInEveryRun(t *testing.T) {
	all := map[string]string{}
	for _, ts := range conformance.Tests() {
		all[ts.Part+"/"+ts.Name] = "pass"
	}
	first := parseEvents(strings.NewReader(events(all)))
	all["A5.2/Sync"] = "fail"
	all["A5.1/TreeOperations"] = "" // never finished (a timeout panic)
	second := parseEvents(strings.NewReader(events(all)))
	rep := score([]*run{first, second}, "")
	if rep.Required.Possible != 100 || rep.Bonus.Possible != 20 || rep.Bonus.Earned != 20 {
		t.Fatalf("required %+v bonus %+v, want 100 possible and a full bonus", rep.Required, rep.Bonus)
	}
	lost := map[string]string{}
	for _, p := range rep.Parts {
		for _, tg := range p.Tests {
			if tg.Earned != tg.Points {
				lost[p.ID+"/"+tg.Name] = tg.Status
			}
		}
	}
	if len(lost) != 2 || lost["A5.2/Sync"] != "flaky" || lost["A5.1/TreeOperations"] != "flaky" {
		t.Fatalf("tests without points: %v; want A5.2/Sync and A5.1/TreeOperations, flaky", lost)
	}
	sync := conformance.Tests()
	want := 100
	for _, ts := range sync {
		if ts.Name == "Sync" || ts.Name == "TreeOperations" {
			want -= ts.Points
		}
	}
	if rep.Required.Earned != want {
		t.Fatalf("required points %d, want %d", rep.Required.Earned, want)
	}
}

func TestScoreOfAPart(t *testing.T) {
	r := parseEvents(strings.NewReader(events(map[string]string{"A5.7/MultiResults": "pass", "A5.7/AllOrNothing": "fail"})))
	rep := score([]*run{r}, "A5.7")
	if len(rep.Parts) != 1 || rep.Bonus.Earned != 2 || rep.Bonus.Possible != 5 || rep.Required.Possible != 0 {
		t.Fatalf("parts %d, bonus %+v, required %+v", len(rep.Parts), rep.Bonus, rep.Required)
	}
	if f := rep.Parts[0].Tests[1].Failure; len(f) != 1 || !strings.Contains(f[0], "something broke") {
		t.Fatalf("failure lines %q", f)
	}
}

func TestABuildFailureIsReportedAsAProblemWithZeroPoints(t *testing.T) {
	out := `{"ImportPath":"zablab/assignments/aufgabe5 [zablab/assignments/aufgabe5.test]","Action":"build-output","Output":"assignments/aufgabe5/service.go:12:2: undefined: foo\n"}
{"ImportPath":"zablab/assignments/aufgabe5 [zablab/assignments/aufgabe5.test]","Action":"build-fail"}
{"Action":"output","Package":"zablab/assignments/aufgabe5","Output":"FAIL\tzablab/assignments/aufgabe5 [build failed]\n"}
{"Action":"fail","Package":"zablab/assignments/aufgabe5"}
`
	r := parseEvents(strings.NewReader(out))
	r.exitErr = errors.New("exit status 1")
	rep := score([]*run{r}, "")
	if rep.Required.Earned != 0 || rep.Bonus.Earned != 0 {
		t.Fatalf("points for a tree that does not build: %+v %+v", rep.Required, rep.Bonus)
	}
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "undefined: foo") {
		t.Fatalf("problems %q, want the compiler's line", rep.Problems)
	}
	if st := rep.Parts[0].Tests[0].Status; st != "not finished" {
		t.Fatalf("status of a test that never ran: %q", st)
	}
}

func TestListNamesEveryTestAndRunsNothing(t *testing.T) {
	var out strings.Builder
	if err := mainErr([]string{"--list"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, ts := range conformance.Tests() {
		if !strings.Contains(out.String(), ts.Name) {
			t.Errorf("--list does not name %s/%s:\n%s", ts.Part, ts.Name, out.String())
		}
	}
	if err := mainErr([]string{"--part", "A5.9"}, &out); !errors.Is(err, errUsage) {
		t.Errorf("--part A5.9: %v, want a usage error", err)
	}
}
