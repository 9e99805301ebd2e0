package main

import (
	"archive/tar"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTar writes a plain (not compressed) tar of files.
func writeTar(t *testing.T, file string, files map[string]string) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	for _, n := range slices.Sorted(maps.Keys(files)) {
		if err := tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(files[n]))}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(files[n]))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
}

var platformHandIn = map[string]string{
	"assignments/aufgabe5/service.go": "package aufgabe5\n",
	"assignments/aufgabe5/queue.go":   "package aufgabe5\n",
}

// TestPlatformFolderHoldsTheUpload: a course platform's download puts
// each upload, as uploaded, into a folder named after its student: a
// folder without assignments/aufgabe5/ whose one archive is the hand-in is
// graded as that archive, under the folder's name (an instructor's trial
// had the whole class refused). Two archives are refused by name.
func TestPlatformFolderHoldsTheUpload(t *testing.T) {
	class := t.TempDir()
	carol := filepath.Join(class, "Carol Meyer_4711_assignsubmission_file_")
	os.MkdirAll(carol, 0o755)
	writeTarGz(t, filepath.Join(carol, "aufgabe5-abgabe.tar.gz"), []tarEntry{
		{name: "assignments/aufgabe5/service.go", data: "package aufgabe5\n"},
		{name: "assignments/aufgabe5/queue.go", data: "package aufgabe5\n"},
	})
	os.WriteFile(filepath.Join(carol, "onlinetext.html"), []byte("<p>hi</p>"), 0o644)
	s, err := loadSubmission(carol, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != filepath.Base(carol) || len(s.Files) != 2 || s.Files["service.go"] == nil {
		t.Fatalf("submission %q with files %v, want the folder's name with service.go and queue.go", s.Name, keys(s.Files))
	}
	rar := filepath.Join(class, "gina")
	os.MkdirAll(rar, 0o755)
	os.WriteFile(filepath.Join(rar, "abgabe.rar"), []byte("Rar!"), 0o644)
	if _, err := loadSubmission(rar, ""); !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "abgabe.rar is not a "+archiveKinds) {
		t.Errorf("a folder holding a .rar: %v, want a refusal naming it", err)
	}
	writeZip(t, filepath.Join(carol, "second.zip"), platformHandIn)
	_, err = loadSubmission(carol, "")
	if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), "aufgabe5-abgabe.tar.gz, second.zip") {
		t.Fatalf("a folder with two archives: %v, want a refusal naming both", err)
	}
}

// TestEveryUploadIsARow: a plain .tar is read; an upload of a kind the
// grader cannot read (a .rar) and a stray file are listed, to become
// refused rows of the gradebook, not students missing from it.
func TestEveryUploadIsARow(t *testing.T) {
	class := t.TempDir()
	writeTar(t, filepath.Join(class, "frank.tar"), platformHandIn)
	os.WriteFile(filepath.Join(class, "gina.rar"), []byte("Rar!"), 0o644)
	os.WriteFile(filepath.Join(class, ".DS_Store"), nil, 0o644)
	// A class folder zipped on a Mac and unpacked elsewhere: Finder's
	// __MACOSX/ beside the hand-ins was a refused row of its own.
	writeTree(t, filepath.Join(class, "__MACOSX"), map[string]string{"._frank.tar": "\x00\x05\x16\x07"})
	items, _, err := listSubmissions(class)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range items {
		names = append(names, it.name)
	}
	if !slices.Equal(names, []string{"frank", "gina.rar"}) {
		t.Fatalf("listed %q, want frank and gina.rar (hidden files left out)", names)
	}
	s, err := loadSubmission(items[0].path, "")
	if err != nil || len(s.Files) != 2 {
		t.Fatalf("frank.tar: %v (files %v), want its 2 files", err, s)
	}
	_, err = loadSubmission(items[1].path, "")
	if !errors.Is(err, errRefused) || !strings.Contains(err.Error(), archiveKinds) {
		t.Fatalf("gina.rar: %v, want a refusal naming the archives read", err)
	}
}

// TestMacArchivesAreGraded: what macOS adds to an archive (Finder's
// __MACOSX/ copy of the folder, tar's AppleDouble "._service.go") and a
// file Go leaves out ("_old.go") are ignored as the compiler ignores
// them; an instructor's trial saw such hand-ins refused ("two graded
// folders", "the grader cannot check this file, yet it compiles").
func TestMacArchivesAreGraded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ida.zip")
	writeZip(t, file, map[string]string{
		"aufgabe5/assignments/aufgabe5/service.go":            "package aufgabe5\n",
		"aufgabe5/assignments/aufgabe5/._service.go":          "\x00\x05\x16\x07\x00\x02",
		"aufgabe5/assignments/aufgabe5/_old.go":               "package aufgabe5\n\nfunc broken( {\n",
		"__MACOSX/aufgabe5/assignments/aufgabe5/._service.go": "\x00\x05\x16\x07",
	})
	s, err := loadSubmission(file, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(s.Files); !slices.Equal(got, []string{"service.go"}) {
		t.Errorf("graded files %q, want only service.go", got)
	}
	if len(s.Ignored) != 3 {
		t.Errorf("ignored %q, want the 3 others", s.Ignored)
	}
	if _, err := checkFiles(s.Files, s.at, true); err != nil {
		t.Errorf("the checks refuse what is left: %v", err)
	}
}

// TestTimeoutIsPerRun: TIMEOUT is per run, as the README says: make
// grade-all always passes --timeout, and as a limit for all runs it gave
// run 6 of REPEAT=8 under a second (a correct hand-in earned 0 points).
func TestTimeoutIsPerRun(t *testing.T) {
	class, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(class, "gina.rar"), []byte("Rar!"), 0o644)
	var log strings.Builder
	err := mainErr(context.Background(), []string{"--submissions", class, "--out", out, "--repeat", "3", "--timeout", "2m"}, &log)
	if err != nil {
		t.Fatalf("batch: %v\n%s", err, log.String())
	}
	if want := "6m0s (3 runs of 2m0s) each at most"; !strings.Contains(log.String(), want) {
		t.Errorf("the batch's limit is not %q:\n%s", want, log.String())
	}
}

// TestOnlineTextBesideAnUploadIsLeftOut: Moodle exports a student's online
// text as a folder of its own beside the upload; there it is left out (a
// second, refused row for the same student), but a student who handed in
// only a text stays a row, so nobody goes missing from the gradebook.
func TestOnlineTextBesideAnUploadIsLeftOut(t *testing.T) {
	class := t.TempDir()
	text := "Gina Lang_1234_assignsubmission_onlinetext_"
	only := "Hans Kurz_1235_assignsubmission_onlinetext_"
	for _, d := range []string{text, "Gina Lang_1234_assignsubmission_file_", only} {
		os.MkdirAll(filepath.Join(class, d), 0o755)
		os.WriteFile(filepath.Join(class, d, "onlinetext.html"), []byte("<p>see the upload</p>"), 0o644)
	}
	items, texts, err := listSubmissions(class)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(texts, []string{text}) {
		t.Errorf("online texts left out %q, want only %q", texts, text)
	}
	var paths []string
	for _, it := range items {
		paths = append(paths, filepath.Base(it.path))
	}
	if want := []string{"Gina Lang_1234_assignsubmission_file_", only}; !slices.Equal(paths, want) {
		t.Fatalf("listed %q, want %q", paths, want)
	}
	rep, _ := gradeItem(context.Background(), testRoot(t, false), withDefaults(options{out: t.TempDir()}), &items[1])
	if rep.Status != "refused" || !strings.Contains(strings.Join(rep.Problems, " "), "online text, no file upload") {
		t.Errorf("a student with only an online text: %s %q, want a refusal saying so", rep.Status, rep.Problems)
	}
}
