package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// variantJobs is how many variants are graded at once: two cores, and a
// grading mostly waits.
const variantJobs = 2

// testLog turns the grader's progress lines into test log lines.
type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// gradeOrFail grades the checkout's code chosen by o (impl, variant) from
// the module root, as make grade does.
func gradeOrFail(t *testing.T, o options) Report {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if o.repeat == 0 {
		o.repeat = 1
	}
	if o.timeout == 0 {
		o.timeout = 5 * time.Minute
	}
	sub, err := checkoutSubmission(root, o)
	if err != nil {
		t.Fatal(err)
	}
	if o.pictures == "" {
		o.pictures = t.TempDir()
	}
	rep, err := gradeSubmission(context.Background(), root, o, sub, testLog{t})
	if err != nil {
		t.Fatalf("grade %s: %v", sub.Name, err)
	}
	return *rep
}

// lost lists the parts without full points, and why, for messages.
func lost(rep Report) map[string]string {
	out := map[string]string{}
	for _, p := range rep.Parts {
		if p.Score.Earned < p.Score.Possible {
			out[p.ID] = lostWhy(p)
		}
	}
	return out
}

// lostWhy names the tests of p that did not pass, and how each failed
// first.
func lostWhy(p PartGrade) string {
	var why []string
	for _, tg := range p.Tests {
		if tg.Status != "pass" {
			line := ""
			if len(tg.Failure) > 0 {
				line = ": " + tg.Failure[0]
			}
			why = append(why, tg.Name+" "+tg.Status+line)
		}
	}
	return strings.Join(why, "; ")
}

func needGo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("grades the reference, the stubs and every known-bad variant: minutes; skipped with -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: the variants test runs go test on the graded trees")
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "solutions", "aufgabe5")); err != nil {
		t.Skip("no solutions/aufgabe5 in this tree (the student's handout): nothing to compare the suite with")
	}
}

// TestReferenceStubsAndVariants proves the suite can fail, and fails the
// right way: the reference earns every point, the untouched stubs none
// (quickly), each known-bad variant loses the parts its file names and
// keeps full points in every other, and each allowed variant keeps every
// point of the parts it names. The gradings run variantJobs at a time.
func TestReferenceStubsAndVariants(t *testing.T) {
	needGo(t)
	// Every grading runs variantJobs at a time (the suite mostly waits on
	// timeouts and elections), each slot in its own port range.
	slots := make(chan int, variantJobs)
	for k := range variantJobs {
		slots <- k
	}
	slot := func(t *testing.T) string {
		t.Parallel()
		k := <-slots
		t.Cleanup(func() { slots <- k })
		return fmt.Sprintf("%d-%d", 24000+k*1000, 24999+k*1000)
	}
	t.Run("reference", func(t *testing.T) {
		rep := gradeOrFail(t, options{impl: "solution", ports: slot(t)})
		if l := lost(rep); len(l) > 0 || rep.Required.Earned != 100 || rep.Bonus.Earned != 20 {
			t.Fatalf("the reference earned %d/100 and %d/20 bonus; parts without full points: %v", rep.Required.Earned, rep.Bonus.Earned, l)
		}
	})
	t.Run("stubs", func(t *testing.T) { checkStubs(t, slot) })
	files, err := filepath.Glob(filepath.Join("..", "..", "solutions", "variants", "*.diff"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no variants under solutions/variants (%v)", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".diff")
		t.Run(name, func(t *testing.T) {
			ports := slot(t)
			abs, err := filepath.Abs(f)
			if err != nil {
				t.Fatal(err)
			}
			v, err := loadVariant(abs)
			if err != nil {
				t.Fatal(err)
			}
			if len(v.keeps) > 0 {
				checkAllowed(t, name, v, ports)
			} else {
				checkKnownBad(t, name, v, ports)
			}
		})
	}
}

// checkStubs grades the untouched stubs: no point, every test failed,
// quickly.
func checkStubs(t *testing.T, slot func(*testing.T) string) {
	root, _ := moduleRoot()
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(gradedDir))); err != nil {
		t.Fatalf("the stubs' folder %s is missing from this tree (every tree has it, the handout too): %v", gradedDir, err)
	}
	ports := slot(t)
	start := time.Now()
	rep := gradeOrFail(t, options{impl: "assignment", ports: ports})
	if rep.Required.Earned != 0 || rep.Bonus.Earned != 0 {
		t.Fatalf("the untouched stubs earned %d points and %d bonus; want 0", rep.Required.Earned, rep.Bonus.Earned)
	}
	for _, p := range rep.Parts {
		for _, tg := range p.Tests {
			if tg.Status != "fail" {
				t.Errorf("stub test %s/%s: status %q, want fail", p.ID, tg.Name, tg.Status)
			}
		}
	}
	if took := time.Since(start); took > 2*time.Minute {
		t.Errorf("grading the stubs took %s; a stub must fail quickly", took.Round(time.Second))
	}
}

// checkKnownBad grades a known-bad variant whole and judges it as make
// grade-variant does (variant.judge): it must lose the parts its file
// names (all of those under Loses all) and keep every other one but those
// it may lose.
func checkKnownBad(t *testing.T, name string, v *variant, ports string) {
	t.Helper()
	rep := gradeOrFail(t, options{impl: "solution", variant: v.file, ports: ports, race: v.race})
	for _, vd := range v.judge(rep) {
		if !vd.graded || !vd.held {
			t.Errorf("variant %s (%s): %s", name, v.about, vd) // the lost parts' failures: logged below
		}
	}
	for _, p := range rep.Parts {
		if p.Score.Earned < p.Score.Possible {
			t.Logf("variant %s loses %s %d/%d: %s", name, p.ID, p.Score.Earned, p.Score.Possible, lostWhy(p))
		}
		checkPictures(t, name, p)
	}
}

// checkAllowed grades an allowed variant on each part it must keep, one
// part at a time (the other parts are the reference's, graded already):
// any point lost there is a test stricter than the sheet.
func checkAllowed(t *testing.T, name string, v *variant, ports string) {
	t.Helper()
	for _, id := range v.keeps {
		rep := gradeOrFail(t, options{impl: "solution", variant: v.file, ports: ports, part: id})
		i := slices.IndexFunc(v.judge(rep), func(vd verdict) bool { return vd.part == id })
		if vd := v.judge(rep)[i]; !vd.graded || !vd.held {
			t.Errorf("allowed variant %s (%s): %s; %s", name, v.about, vd, lost(rep)[id])
		}
	}
}

// checkPictures: an A5.2/Linearizable that found a history not
// linearizable leaves the page of it, and the report names it.
func checkPictures(t *testing.T, variant string, p PartGrade) {
	t.Helper()
	for _, tg := range p.Tests {
		if p.ID != "A5.2" || tg.Name != "Linearizable" {
			continue
		}
		said := slices.ContainsFunc(tg.Failure, func(l string) bool { return strings.Contains(l, "not linearizable") })
		if said && len(tg.Pictures) == 0 {
			t.Errorf("variant %s: A5.2/Linearizable %s without a picture of a history that is not linearizable in the report: %q",
				variant, tg.Status, tg.Failure)
		}
		for _, pic := range tg.Pictures {
			if b, err := os.ReadFile(pic); err != nil || !strings.Contains(string(b), "not linearizable") {
				t.Errorf("A5.2/Linearizable's picture %s: %v (%d bytes)", pic, err, len(b))
			}
		}
	}
}
