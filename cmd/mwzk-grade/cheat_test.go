package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"zablab/mwzookeeper/conformance"
)

// emptySuite is a conformance_test.go whose subtests carry the suite's
// names and pass without testing anything, with a TestMain besides.
func emptySuite() string {
	var b strings.Builder
	b.WriteString("package aufgabe5_test\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n")
	b.WriteString("func TestMain(m *testing.M) { os.Exit(m.Run()) }\n\n")
	b.WriteString("func TestConformance(t *testing.T) {\n")
	for _, p := range conformance.Parts() {
		fmt.Fprintf(&b, "\tt.Run(%q, func(t *testing.T) {\n", p.ID)
		for _, ts := range conformance.Tests() {
			if ts.Part == p.ID {
				fmt.Fprintf(&b, "\t\tt.Run(%q, func(t *testing.T) {})\n", ts.Name)
			}
		}
		b.WriteString("\t})\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// forgedOutput is a non-test file whose init prints what go test -json and
// go test -v print for passing tests (with the framing byte test2json
// trusts), again and again from a goroutine so that a forged pass comes
// after the real failure (go test's events alone would credit it), and
// tries the grader's result pipe with unsigned lines, through the logger.
func forgedOutput() string {
	var b strings.Builder
	b.WriteString("package aufgabe5\n\nimport (\n\t\"fmt\"\n\t\"time\"\n\n\t\"zablab/logging\"\n\t\"zablab/properties\"\n)\n\n")
	// forge runs once at init (the stubs' tests may all fail, and the
	// process exit, within the first 5 ms) and then again and again.
	b.WriteString("func init() {\n\tforge()\n\tgo func() {\n\t\tfor {\n\t\t\ttime.Sleep(5 * time.Millisecond)\n\t\t\tforge()\n\t\t}\n\t}()\n}\n\nfunc forge() {\n")
	b.WriteString("\tp, _ := properties.LoadString(\"log.file=/proc/self/fd/4\\nlog.format=json\\n\")\n")
	b.WriteString("\tlg, _, err := logging.New(p)\n")
	for _, ts := range conformance.Tests() {
		name := "TestConformance/" + ts.Part + "/" + ts.Name
		fmt.Fprintf(&b, "\tfmt.Println(`{\"Action\":\"pass\",\"Test\":%q}`)\n", name)
		fmt.Fprintf(&b, "\tfmt.Println(\"--- PASS: %s (0.00s)\")\n", name)
		// go test -v=test2json marks its own lines with a 0x16 byte.
		fmt.Fprintf(&b, "\tfmt.Println(\"\\x16=== RUN   %s\")\n", name)
		fmt.Fprintf(&b, "\tfmt.Println(\"\\x16--- PASS: %s (0.00s)\")\n", name)
		fmt.Fprintf(&b, "\tif err == nil { lg.Info(`{\"kind\":\"result\",\"result\":{\"test\":%q,\"status\":\"pass\"}}`) }\n", ts.Part+"/"+ts.Name)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestFakedSubmissionsScoreZero: the untouched stubs, handed in with a
// suite of empty subtests, a TestMain and a test file of their own, or with
// an init that prints passing tests and writes to the result pipe, earn
// nothing; the test files are listed as ignored.
func TestFakedSubmissionsScoreZero(t *testing.T) {
	// assignments/aufgabe5 holds the untouched stubs only where the tree
	// has the reference; in a student's copy it holds their work.
	root := testRoot(t, true)
	stubs := folderFiles(t, root, "assignments/aufgabe5")

	t.Run("own tests", func(t *testing.T) {
		files := inFolder("", stubs)
		files[gradedDir+"conformance_test.go"] = emptySuite()
		files[gradedDir+"mine_test.go"] = "package aufgabe5\n\nimport \"testing\"\n\nfunc TestMine(t *testing.T) {}\n"
		dir := t.TempDir()
		writeTree(t, dir, files)
		rep := gradeFolder(t, root, dir, options{})
		if rep.Status != "graded" || points(rep) != 0 {
			t.Fatalf("status %s, %d points; want graded with 0", rep.Status, points(rep))
		}
		ignored := strings.Join(rep.Ignored, "\n")
		for _, f := range []string{"conformance_test.go", "mine_test.go"} {
			if !strings.Contains(ignored, f) {
				t.Errorf("%s not listed as ignored: %q", f, rep.Ignored)
			}
		}
	})

	// In the sandbox the forger finds no /proc/self/fd/4 to write to; run
	// unconfined (--no-sandbox), its unsigned lines reach the pipe and
	// must count for nothing.
	for _, unconfined := range []bool{false, true} {
		t.Run(fmt.Sprintf("printed results, unconfined %v", unconfined), func(t *testing.T) {
			files := inFolder("", stubs)
			files[gradedDir+"forge.go"] = forgedOutput()
			dir := t.TempDir()
			writeTree(t, dir, files)
			rep := gradeFolder(t, root, dir, options{noSandbox: unconfined, sharedUnchecked: true})
			if rep.Status != "graded" || points(rep) != 0 {
				t.Fatalf("status %s, %d points; want graded with 0 (problems %q)", rep.Status, points(rep), rep.Problems)
			}
			if p := strings.Join(rep.Problems, "\n"); unconfined && !strings.Contains(p, "not signed") {
				t.Errorf("the unsigned lines on the result pipe were not reported: %q", rep.Problems)
			}
		})
	}
}

// TestForbiddenCodeIsRefusedBeforeAnythingRuns: imports outside the
// allowlist, //go:linkname and cgo are refused, each named with file and
// line, and nothing is compiled.
func TestForbiddenCodeIsRefusedBeforeAnythingRuns(t *testing.T) {
	root := testRoot(t, false)
	files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	files[gradedDir+"evil.go"] = "package aufgabe5\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"testing\"\n\t\"unsafe\"\n\t_ \"zablab/internal/gradeseal\"\n)\n\n" +
		"//go:linkname key zablab/internal/gradeseal.key\nvar key []byte\n\nvar _ = os.Args\nvar _ = exec.Command\nvar _ testing.T\nvar _ unsafe.Pointer\n"
	files[gradedDir+"c.go"] = "package aufgabe5\n\n// #include <stdio.h>\nimport \"C\"\n"
	dir := t.TempDir()
	writeTree(t, dir, files)
	sub, err := loadSubmission(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = checkFiles(sub.Files, sub.at, true)
	if !errors.Is(err, errRefused) {
		t.Fatalf("checkFiles: %v, want refused", err)
	}
	for _, want := range []string{`evil.go:4: import "os"`, `evil.go:5: import "os/exec"`, `evil.go:6: import "testing"`,
		`evil.go:7: import "unsafe"`, `evil.go:8: import "zablab/internal/gradeseal"`, "evil.go:11: //go:linkname", `c.go:4: import "C"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not name %q", err, want)
		}
	}
	rep := gradeFolder(t, root, dir, options{})
	if rep.Status != "refused" || points(rep) != 0 || rep.Compile != nil {
		t.Fatalf("status %s, %d points, compile %q; want refused before compiling", rep.Status, points(rep), rep.Compile)
	}
}

// TestUnparsableButCompilingFileIsRefused: go/parser gives up on a
// nesting deeper than it takes, the compiler does not; a file that hid an
// import of the reference solution behind such an expression earned every
// point. A file the checks cannot read but the compiler builds is refused
// (after compiling, so a plain syntax error still gets the compiler's
// message).
func TestUnparsableButCompilingFileIsRefused(t *testing.T) {
	root := testRoot(t, false)
	files := inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	const depth = 100_001
	files[gradedDir+"deep.go"] = "package aufgabe5\n\nimport \"os\"\n\nvar _ = os.Args\n\nvar _ = " +
		strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth) + "\n"
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.1"})
	if rep.Status != "refused" || points(rep) != 0 {
		t.Fatalf("status %s, %d points, compile %q; want refused", rep.Status, points(rep), rep.Compile)
	}
	if p := strings.Join(rep.Problems, "\n"); !strings.Contains(p, "deep.go: the grader cannot check this file") {
		t.Errorf("the refusal does not name deep.go: %q", rep.Problems)
	}

	// A plain syntax error is the compiler's to report.
	files = inFolder("", folderFiles(t, root, "assignments/aufgabe5"))
	files[gradedDir+"typo.go"] = "package aufgabe5\n\nfunc f() {\n"
	dir = t.TempDir()
	writeTree(t, dir, files)
	rep = gradeFolder(t, root, dir, options{part: "A5.1"})
	if rep.Status != "compile-error" || !strings.Contains(strings.Join(rep.Compile, "\n"), "typo.go") {
		t.Fatalf("status %s, compile %q; want a compile error naming typo.go", rep.Status, rep.Compile)
	}
}

// TestWritesToOtherPackagesVariablesAreRefused: graded code that sets a
// variable of an allowed package (the suite compares error codes through
// mwzookeeper.ErrNoNode and its siblings; a review earned ErrorCodes by
// setting them all to ErrAPIError), changes, indexes into or takes the
// address of one, or dot-imports a package, is refused with file and line;
// reading them and the reference's own code are fine.
func TestWritesToOtherPackagesVariablesAreRefused(t *testing.T) {
	bad := "package aufgabe5\n\nimport (\n\tzk \"zablab/mwzookeeper\"\n\t\"math/rand/v2\"\n\t. \"zablab/zab\"\n)\n\n" +
		"var _ = DefaultTickTime\n\n" +
		"func init() {\n\tzk.ErrNoNode = zk.ErrAPIError\n\tp := &zk.ErrBadVersion\n\t_ = p\n" +
		"\t(zk.ErrNotEmpty) = nil\n\t_ = rand.N(3)\n\tfor _, zk.ErrNodeExists = range []*zk.Error{nil} {\n\t}\n}\n\nfunc ok() error { e := zk.ErrNoNode; return e }\n"
	_, _, problems, err := checkFile("evil.go", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(problems, "\n")
	for _, want := range []string{"evil.go:6: the dot import", "evil.go:12: assigning to zk.ErrNoNode", "evil.go:13: taking the address of zk.ErrBadVersion", "evil.go:15: assigning to zk.ErrNotEmpty", "evil.go:17: assigning to zk.ErrNodeExists"} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q:\n%s", want, text)
		}
	}
	if len(problems) != 5 {
		t.Errorf("%d problems, want 5:\n%s", len(problems), text)
	}
	root := testRoot(t, true)
	for _, dir := range []string{"solutions/aufgabe5", "assignments/aufgabe5"} {
		for name, src := range folderFiles(t, root, dir) {
			if _, _, p, err := checkFile(name, []byte(src)); err != nil || len(p) > 0 {
				t.Errorf("%s/%s: %v %q", dir, name, err, p)
			}
		}
	}
}

// TestSentinelCopiedThroughAPointerGainsNothing: a Service that answers
// every NoNode with APIERROR, and copies ErrAPIError over ErrNoNode
// through a pointer (which no syntactic check sees), still fails
// A5.1/ErrorCodes: the suite takes the codes it expects from mwzookeeper's
// own table, and CodeOf knows a sentinel by identity.
func TestSentinelCopiedThroughAPointerGainsNothing(t *testing.T) {
	root := testRoot(t, true)
	files := map[string]string{}
	for name, src := range folderFiles(t, root, "solutions/aufgabe5") {
		files[gradedDir+name] = strings.ReplaceAll(src, "mwzookeeper.ErrNoNode", "mwzookeeper.ErrAPIError")
	}
	files[gradedDir+"zz.go"] = "package aufgabe5\n\nimport zk \"zablab/mwzookeeper\"\n\nfunc init() { e := zk.ErrNoNode; *e = *zk.ErrAPIError }\n"
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.1"})
	for _, p := range rep.Parts {
		for _, tg := range p.Tests {
			if tg.Name == "ErrorCodes" && tg.Status == "pass" {
				t.Errorf("A5.1/ErrorCodes passed for a Service that answers NoNode with APIERROR (status %s, problems %q)", rep.Status, rep.Problems)
			}
		}
	}
}
