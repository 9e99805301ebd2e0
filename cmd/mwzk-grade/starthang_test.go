package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestStartThatNeverReturnsIsGradedWithinMinutes: a Service whose Start
// never returns held the suite until its time was up (15 minutes per
// hand-in by default: an instructor's trial of a class). It is a failed
// test now, and the part's other tests of that size are not run. The
// limit here is what a grade of A5.1 takes when it works; it used to
// end in "timeout".
func TestStartThatNeverReturnsIsGradedWithinMinutes(t *testing.T) {
	root := testRoot(t, true)
	files := inFolder("", folderFiles(t, root, "solutions/aufgabe5"))
	svc := gradedDir + "service.go"
	const at = "func (s *Service) Start(p *properties.Properties, host mwzookeeper.Host) error {\n"
	if !strings.Contains(files[svc], at) {
		t.Fatalf("%s has no %q", svc, at)
	}
	files[svc] = strings.Replace(files[svc], at, at+"\t<-make(chan struct{})\n", 1)
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.1", timeout: 4 * time.Minute})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != "graded" || !strings.Contains(string(b), "Start did not return within") {
		t.Fatalf("status %q, want graded with a failure that says Start did not return; the grade:\n%s", rep.Status, b)
	}
	if points(rep) != 0 {
		t.Errorf("%d points for a Service that never starts", points(rep))
	}
}
