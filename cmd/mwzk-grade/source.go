package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// errRefused marks a submission the grader will not grade: an unsafe
// archive, forbidden imports, no assignments/aufgabe5 folder. Its message
// names the entry, file or import.
var errRefused = errors.New("refused")

// gradedDir is the folder of a submission that is graded.
const gradedDir = "assignments/aufgabe5/"

// Limits against archives that unpack to far more than a student writes.
// Names count too: an empty entry with a name of a megabyte compresses a
// thousandfold, and every name is kept (the report lists what was
// ignored).
const (
	maxFileSize  = 4 << 20
	maxTotalSize = 64 << 20
	maxNameSize  = 4096   // Linux's PATH_MAX
	maxEntries   = 100000 // a zipped checkout with its .git may hold thousands of loose objects
	// maxUnread bounds the files past maxFileSize that are skipped, not
	// read: a .tar.gz must still be decompressed past them.
	maxUnread = 1 << 30
)

// submission is what is graded: the non-test Go files of an
// assignments/aufgabe5 folder. Nothing else of the submission is used.
type submission struct {
	Name    string            // as reports name it
	Origin  string            // the archive, folder or repository given; "" for the checkout
	Ref     string            // the commit graded, for a git repository
	Files   map[string][]byte // base name -> content
	Ignored []string          // everything else that came with it, and why

	outside map[string][]byte // files outside the graded folder, by path relative to the submission's root
	dir     string            // the graded folder's path in the submission, ending in "/"
	// variant is set for a known-bad variant of the checkout's reference:
	// the three that share state between replicas show the suite's run-time
	// checks, so the static refusal of shared state (sharedState) is not
	// applied to them. A hand-in never has it.
	variant bool
}

// at is where a graded file is in the submission, as its author finds it.
func (s *submission) at(name string) string {
	if s.dir == "" {
		return gradedDir + name
	}
	return s.dir + name
}

// entry is one regular file of a submission, by its slash-separated path.
type entry struct {
	name string
	data []byte
	// unread is the size of a file past maxFileSize, whose content was
	// not read: a whole tree's bin/ or peers' logs are never graded, and a
	// graded file that large is refused (pick).
	unread int64
}

// sha256 is the hash of the graded files: each file's name and content, in
// name order, length-prefixed, so it changes with any byte or rename.
func (s *submission) sha256() string {
	h := sha256.New()
	names := make([]string, 0, len(s.Files))
	for n := range s.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	var n8 [8]byte
	for _, n := range names {
		for _, part := range [][]byte{[]byte(n), s.Files[n]} {
			binary.BigEndian.PutUint64(n8[:], uint64(len(part)))
			h.Write(n8[:])
			h.Write(part)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loadSubmission reads a .tar.gz/.tgz/.zip archive, a folder or a git
// repository (at ref, default HEAD).
func loadSubmission(p, ref string) (*submission, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", p, err)
	}
	var ents []entry
	s := &submission{Name: submissionName(p), Origin: p}
	gd := ""
	if fi.IsDir() {
		gd = gitDir(p)
	}
	switch {
	case gd != "":
		s.Ref, ents, err = repoEntries(p, gd, ref)
	case fi.IsDir():
		note := gitFileNote(p)
		if ref != "" {
			return nil, fmt.Errorf("submission %s: REF=%s given, but it is a plain folder, not a git repository (%s)", p, ref, cmp.Or(note, "no .git in it"))
		}
		if note != "" {
			s.Ignored = []string{note} // pick adds the rest
		}
		var a string
		if a, err = soleArchive(p); err == nil && a != "" {
			return archiveInFolder(s, a)
		}
		if err == nil {
			ents, err = dirEntries(p)
		}
	case !fi.Mode().IsRegular():
		// A named pipe called "anna.zip" would block the open, and the
		// whole batch with it; a device is no upload either.
		return nil, fmt.Errorf("%w: submission %s is %s, not a %s archive, a folder or a git repository",
			errRefused, p, fileKind(fi.Mode()), archiveKinds)
	case hasSuffixFold(p, ".tar.gz") || hasSuffixFold(p, ".tgz"):
		ents, err = tarGzEntries(p)
	case hasSuffixFold(p, ".tar"):
		ents, err = tarFileEntries(p)
	case hasSuffixFold(p, ".zip"):
		ents, err = zipEntries(p)
	default:
		return nil, fmt.Errorf("%w: submission %s: not a %s archive, a folder or a git repository", errRefused, p, archiveKinds)
	}
	if err != nil {
		return nil, err
	}
	if err := s.pick(p, ents); err != nil {
		return nil, err
	}
	return s, nil
}

// notGraded says why rest, a path inside the graded folder, is not
// graded, "" for a file that is: a non-test .go file directly in it that
// Go builds.
func notGraded(rest string) string {
	switch {
	case strings.Contains(rest, "/"):
		return "in a subfolder of " + gradedDir
	case strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "_"):
		return "Go leaves out files whose names start with . or _"
	case strings.HasSuffix(rest, "_test.go"):
		return "a test file (the grader uses its own)"
	case !strings.HasSuffix(rest, ".go"):
		return "not a .go file"
	}
	return ""
}

// fileKind names what a file that is neither a regular file nor a
// folder is, for a refusal.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return fmt.Sprintf("not a regular file (%v)", m.Type())
}

// archiveKinds names the archives a submission may be.
const archiveKinds = ".zip, .tar.gz, .tgz or .tar"

// archiveSuffixes are the archives loadSubmission reads, in any case
// (a platform keeps "Abgabe.ZIP" as uploaded).
var archiveSuffixes = []string{".tar.gz", ".tgz", ".zip", ".tar"}

func hasSuffixFold(name, suf string) bool {
	return len(name) >= len(suf) && strings.EqualFold(name[len(name)-len(suf):], suf)
}

// isArchive says whether name ends as an archive loadSubmission reads.
func isArchive(name string) bool {
	return slices.ContainsFunc(archiveSuffixes, func(suf string) bool { return hasSuffixFold(name, suf) })
}

// otherArchive: an archive of a kind the grader does not read (an upload
// as .rar), to be named in a platform folder's refusal.
func otherArchive(name string) bool {
	return slices.ContainsFunc([]string{".rar", ".7z", ".bz2", ".tbz", ".xz", ".txz", ".gz", ".zst", ".lz"},
		func(suf string) bool { return hasSuffixFold(name, suf) })
}

// soleArchive is the one archive at the top of a folder that has no
// assignments/aufgabe5/ folder: a course platform's download puts each
// upload, as it was uploaded, into a folder named after its student. ""
// when the folder has the graded folder or no archive (dirEntries then
// reads or refuses it); an error when it has several. It looks at names
// only: the upload itself may be larger than any one file of a hand-in.
// Hidden files (macOS's "._abgabe.zip") do not count.
func soleArchive(dir string) (string, error) {
	var archives, unread []string
	graded, n := false, 0
	graderDir := strings.TrimSuffix(gradedDir, "/")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > maxEntries {
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && (macMetadata(rel) || d.Name() == ".git"):
			return filepath.SkipDir // pick ignores them too
		case d.IsDir() && (rel == graderDir || strings.HasSuffix(rel, "/"+graderDir)):
			graded = true
			return fs.SkipAll
		case d.Type().IsRegular() && !strings.Contains(rel, "/") && !strings.HasPrefix(rel, "."):
			if isArchive(rel) {
				archives = append(archives, rel)
			} else if otherArchive(rel) {
				unread = append(unread, rel)
			}
		}
		return nil
	})
	if err != nil || graded || n > maxEntries {
		return "", nil
	}
	if len(archives) == 0 && len(unread) > 0 {
		return "", fmt.Errorf("%w: submission %s has no %s folder, and %s is not a %s archive",
			errRefused, dir, gradedDir, strings.Join(unread, ", "), archiveKinds)
	}
	if len(archives) > 1 {
		slices.Sort(archives)
		return "", fmt.Errorf("%w: submission %s has no %s folder but %d archives (%s): which one is the hand-in?",
			errRefused, dir, gradedDir, len(archives), strings.Join(archives, ", "))
	}
	if len(archives) == 0 {
		return "", nil
	}
	return filepath.Join(dir, archives[0]), nil
}

// archiveInFolder is the submission in the folder s's sole archive,
// under the folder's name.
func archiveInFolder(s *submission, archive string) (*submission, error) {
	inner, err := loadSubmission(archive, "")
	if err != nil {
		return nil, err
	}
	inner.Name = s.Name
	return inner, nil
}

// submissionName is p's base name without an archive suffix; for a file in
// a course platform's folder of one student ("Dave Muster_1234_
// assignsubmission_file_/aufgabe5-abgabe.tar.gz", where every upload has the
// name the sheet gives) that folder's name, as a class's batch names it.
func submissionName(p string) string {
	clean := filepath.Clean(p)
	parent := filepath.Base(filepath.Dir(clean))
	if _, ok := platformPrefix(parent); ok {
		return parent
	}
	b := filepath.Base(clean)
	for _, suf := range append(slices.Clone(archiveSuffixes), ".git") {
		if hasSuffixFold(b, suf) && len(b) > len(suf) {
			return b[:len(b)-len(suf)]
		}
	}
	return b
}

// goFolders says where a hand-in without the graded folder has its Go
// files, the most first: ", but aufgabe5/ with 15 .go files" (packed from
// inside assignments/, an instructor's trial), so that the refusal says
// what was found, not only what was not.
func goFolders(ents []entry) string {
	count := map[string]int{}
	for _, e := range ents {
		if strings.HasSuffix(e.name, ".go") && !macMetadata(e.name) {
			dir := path.Dir(e.name) + "/"
			if dir == "./" {
				dir = "the top"
			}
			count[dir]++
		}
	}
	if len(count) == 0 {
		return ", and no .go file at all"
	}
	dirs := slices.Collect(maps.Keys(count))
	slices.SortFunc(dirs, func(a, b string) int { return cmp.Or(count[b]-count[a], strings.Compare(a, b)) })
	var out []string
	for i, d := range dirs {
		if i == 2 {
			out = append(out, plural(len(dirs)-2, "more folder"))
			break
		}
		out = append(out, fmt.Sprintf("%s with %s", d, plural(count[d], ".go file")))
	}
	return ", but " + strings.Join(out, ", ")
}

// pick keeps the non-test Go files directly in the one assignments/aufgabe5
// folder of ents (at the top or under one or more folders) and lists the
// rest as ignored.
func (s *submission) pick(origin string, ents []entry) error {
	prefix := ""
	for _, e := range ents {
		if macMetadata(e.name) {
			continue
		}
		i := strings.Index("/"+e.name, "/"+gradedDir)
		if i < 0 {
			continue
		}
		p := e.name[:i] + gradedDir
		if prefix != "" && p != prefix {
			return fmt.Errorf("%w: submission %s has two %s folders: %s and %s", errRefused, origin, gradedDir, prefix, p)
		}
		prefix = p
	}
	if prefix == "" {
		return fmt.Errorf("%w: submission %s has no %s folder%s (hand in the folder assignments/aufgabe5 with your .go files)", errRefused, origin, gradedDir, goFolders(ents))
	}
	s.Files, s.outside, s.dir = map[string][]byte{}, map[string][]byte{}, prefix
	top := strings.TrimSuffix(prefix, gradedDir)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.name, prefix)
		var why string
		switch {
		case macMetadata(e.name):
			why = "macOS metadata"
		case !ok:
			why = "outside " + gradedDir
			if r, ok := strings.CutPrefix(e.name, top); ok && e.unread == 0 {
				s.outside[r] = e.data
			}
		default:
			why = notGraded(rest)
		}
		switch {
		case e.unread > 0 && why == "":
			return fmt.Errorf("%w: %s: entry %q has %d bytes (at most %d)", errRefused, origin, e.name, e.unread, maxFileSize)
		case e.unread > 0:
			s.Ignored = append(s.Ignored, fmt.Sprintf("%s: not read: %d bytes (a file of more than %d is never graded)", e.name, e.unread, maxFileSize))
		case why != "":
			s.Ignored = append(s.Ignored, e.name+": "+why)
		default:
			s.Files[rest] = e.data
		}
	}
	if len(s.Files) == 0 {
		return fmt.Errorf("%w: submission %s: no .go files in %s", errRefused, origin, prefix)
	}
	slices.Sort(s.Ignored) // by path: archives and folders list their entries in any order
	return nil
}

// macMetadata: what macOS adds to an archive or folder beside the files
// (Finder's __MACOSX/ folder, tar's AppleDouble "._name" files).
func macMetadata(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part == "__MACOSX" || strings.HasPrefix(part, "._") {
			return true
		}
	}
	return false
}

// checkForeign refuses a submission that carries a changed copy of one of
// the grader's own files (an attempt to replace a test, the suite or the
// grader): it would be ignored anyway, but the attempt is named, not
// hidden. Unchanged copies, earlier versions from the grader's own git
// history (a whole checkout of an older handout) and files the grader
// does not have are only listed as ignored.
func (s *submission) checkForeign(root string) error {
	var changed []string
	for rel, data := range s.outside {
		mine, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || string(mine) == string(data) || !graderOwned(rel) {
			continue
		}
		if earlierVersion(root, rel, data) {
			// Named first, instead of as one of many files "outside".
			s.Ignored = slices.DeleteFunc(s.Ignored, func(e string) bool {
				return strings.HasSuffix(strings.TrimSuffix(e, ": outside "+gradedDir), rel)
			})
			s.Ignored = append([]string{rel + ": an earlier version of the grader's file (an older handout); the grader's own is used"}, s.Ignored...)
			continue
		}
		changed = append(changed, rel)
	}
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	return fmt.Errorf("%w: %s carries changed copies of the grader's files: %s (only %s*.go is graded; hand in that folder alone)",
		errRefused, s.Name, strings.Join(changed, ", "), gradedDir)
}

// earlierVersion says whether data is the content path had in some commit
// of the grader's git history; false where root has no history (a
// handout).
func earlierVersion(root, path string, data []byte) bool {
	cmd := helperCommand("git", "-c", "safe.directory=*", "-C", root, "hash-object", "-t", "blob", "--stdin")
	cmd.Stdin = bytes.NewReader(data)
	id, err := cmd.Output()
	if err != nil {
		return false
	}
	// Every blob path ever had, one per change ("old new" ids of --raw).
	// -m: a version that only a merge brought shows in no plain diff.
	log, err := gitOut(root, "log", "--all", "-m", "--no-renames", "--format=", "--raw", "--no-abbrev", "--", path)
	return err == nil && strings.Contains(log, " "+strings.TrimSpace(string(id))+" ")
}

// graderOwned: a path that makes up the grading itself (tests, the suite,
// the grader, the module and make files). A changed copy of other provided
// code (zab/, say, from an older handout) is only listed as ignored: the
// grader's own copy is used either way.
func graderOwned(rel string) bool {
	for _, p := range []string{"mwzookeeper/conformance/", "cmd/mwzk-grade/", "internal/gradeseal/", "internal/svctest/", "mk/"} {
		if strings.HasPrefix(rel, p) {
			return true
		}
	}
	return strings.HasSuffix(rel, "_test.go") || rel == "go.mod" || rel == "go.sum" || rel == "Makefile"
}

// driveLetter says whether name starts with a Windows drive ("C:" alone or
// "C:/..."), an absolute path in a zip made on Windows. A name such as
// "A:5/x" from a tar is an ordinary folder name and passes.
func driveLetter(name string) bool {
	if len(name) < 2 || name[1] != ':' {
		return false
	}
	c := name[0] | 0x20 // lower case
	return c >= 'a' && c <= 'z' && (len(name) == 2 || name[2] == '/')
}

// checkName refuses an archive entry that could land outside the folder it
// is unpacked into.
func checkName(origin, name string) (string, error) {
	clean := path.Clean(name)
	switch {
	case strings.HasPrefix(name, "/") || filepath.IsAbs(name) || driveLetter(name):
		return "", fmt.Errorf("%w: %s: entry %q has an absolute path", errRefused, origin, name)
	case strings.Contains(name, `\`):
		return "", fmt.Errorf("%w: %s: entry %q has a \\ in its name (a Windows path? archive it with / as the separator, as tar does)", errRefused, origin, name)
	case clean == ".." || strings.HasPrefix(clean, "../") || slices.Contains(strings.Split(name, "/"), ".."):
		return "", fmt.Errorf("%w: %s: entry %q has a .. path element", errRefused, origin, name)
	}
	return strings.TrimPrefix(clean, "./"), nil
}

// budget counts unpacked bytes and entries against the limits.
type budget struct {
	total   int64
	unread  int64 // bytes of files past maxFileSize, skipped
	entries int
}

// entry counts one entry of any kind, folders too, by its raw name.
func (b *budget) entry(origin, name string) error {
	b.entries++
	switch {
	case len(name) > maxNameSize:
		return fmt.Errorf("%w: %s: an entry's name has %d bytes (at most %d): %.60q…", errRefused, origin, len(name), maxNameSize, name)
	case b.entries > maxEntries:
		return fmt.Errorf("%w: %s has more than %d entries", errRefused, origin, maxEntries)
	}
	return nil
}

// take counts a file's content and its name; read is false for a file
// past maxFileSize, whose content is then skipped (pick refuses it if it
// would be graded).
func (b *budget) take(origin, name string, n int64) (read bool, err error) {
	b.total += int64(len(name))
	if n > maxFileSize {
		b.unread += n
	} else {
		b.total += n
	}
	switch {
	case b.unread > maxUnread:
		return false, fmt.Errorf("%w: %s holds more than %d bytes in files of more than %d bytes each", errRefused, origin, maxUnread, maxFileSize)
	case b.total > maxTotalSize:
		return false, fmt.Errorf("%w: %s unpacks to more than %d bytes", errRefused, origin, maxTotalSize)
	}
	return n <= maxFileSize, nil
}

// dirEntries reads a folder's regular files; a link or special file in it is
// refused, .git folders are skipped.
func dirEntries(dir string) ([]entry, error) {
	var ents []entry
	var b budget
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if err := b.entry(dir, rel); err != nil {
			return err
		}
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case rel == ".git" && d.Type().IsRegular():
			return nil // a pointer to a repository elsewhere (gitFileNote)
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%w: %s: %q is a symbolic link", errRefused, dir, rel)
		case !d.Type().IsRegular():
			return fmt.Errorf("%w: %s: %q is not a regular file", errRefused, dir, rel)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		read, err := b.take(dir, rel, fi.Size())
		if err != nil || !read {
			ents = append(ents, entry{name: rel, unread: fi.Size()})
			return err
		}
		data, err := os.ReadFile(p)
		ents = append(ents, entry{name: rel, data: data})
		return err
	})
	if err != nil {
		return nil, err
	}
	return ents, nil
}
