package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// gitDir is the repository a hand-in folder holds, or "" when it holds
// none of its own: dir/.git when that is a real folder (a working clone),
// else dir itself when it is a bare repository. A .git file ("gitdir:
// ../alice/.git", as git worktree and submodules make) or a .git link
// points outside the hand-in, possibly at another student's repository,
// so it makes no repository (see gitFileNote).
func gitDir(dir string) string {
	gd := filepath.Join(dir, ".git")
	switch fi, err := os.Lstat(gd); {
	case err != nil:
		gd = dir // perhaps a bare repository
	case !fi.IsDir():
		return ""
	}
	for _, p := range []string{"HEAD", "objects", "refs"} {
		fi, err := os.Lstat(filepath.Join(gd, p))
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 || (p == "HEAD") != fi.Mode().IsRegular() || (p != "HEAD") != fi.IsDir() {
			return "" // HEAD a FIFO, say: reading it would hang the grader
		}
	}
	return gd
}

// checkOwnRepo refuses a repository that takes refs or objects from
// outside the hand-in: a commondir file (a worktree's, which would resolve
// HEAD in another repository), alternates, or a symbolic link anywhere in
// it. The hand-in must carry the commit it is graded at.
func checkOwnRepo(dir, gd string) error {
	return filepath.WalkDir(gd, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("submission %s: %w", dir, err)
		}
		rel, _ := filepath.Rel(gd, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%w: submission %s: its repository has a symbolic link %q (it must not reach outside the hand-in)", errRefused, dir, rel)
		// EqualFold: on a case-insensitive disk (macOS, Windows) git
		// opens objects/info/Alternates as well.
		case strings.EqualFold(rel, "objects/info/alternates") || strings.EqualFold(rel, "objects/info/http-alternates"):
			return fmt.Errorf("%w: submission %s: its repository borrows objects from another repository through %s "+
				"(a clone made with --shared or --reference): its commit could be graded with files stored elsewhere on this machine; "+
				"in the repository run git repack -a -d, then delete that file, and hand it in again", errRefused, dir, p)
		case strings.EqualFold(rel, "commondir"):
			return fmt.Errorf("%w: submission %s: its repository takes refs or objects from elsewhere (%s); hand in a plain clone", errRefused, dir, rel)
		}
		return nil
	})
}

// gitFileNote is the Ignored line of a hand-in folder whose .git is a file
// (or a link), "" when it is not. Its folder is graded by the files in it,
// as any plain folder: that is what the student sees, and refusing it
// would cost points for what git worktree or a submodule checkout leaves.
func gitFileNote(dir string) string {
	fi, err := os.Lstat(filepath.Join(dir, ".git"))
	if err != nil || fi.IsDir() {
		return ""
	}
	target := "a link"
	if fi.Mode().IsRegular() {
		if f, err := os.Open(filepath.Join(dir, ".git")); err == nil {
			line, _ := bufio.NewReader(io.LimitReader(f, 200)).ReadString('\n')
			f.Close()
			target = fmt.Sprintf("%q", strings.TrimSpace(line))
		}
	}
	return fmt.Sprintf(".git: a file pointing elsewhere (%s), not a repository inside the hand-in: not used; the folder's files are graded as they are", target)
}

// cleanRepo is a repository of the grader's own that reads the hand-in's
// objects and refs but none of its configuration: a hand-in's .git/config
// and info/attributes can name filter commands (smudge) that git archive
// runs, and a review ran a shell command as the instructor that way. The
// new repository gets copies of HEAD, packed-refs and refs/ (checkOwnRepo
// refused links) and the hand-in's objects through GIT_OBJECT_DIRECTORY.
type cleanRepo struct {
	dir, objects string
	ctx          context.Context // bounds every git command: a broken repository must not hang a batch
	cancel       context.CancelFunc
}

// gitTimeout bounds each git command on a hand-in's repository.
const gitTimeout = 2 * time.Minute

func newCleanRepo(dir, gd string) (*cleanRepo, error) {
	tmp, err := os.MkdirTemp("", "mwzk-grade-git-*")
	if err != nil {
		return nil, err
	}
	r := &cleanRepo{dir: tmp, objects: filepath.Join(gd, "objects")}
	r.ctx, r.cancel = context.WithTimeout(context.Background(), gitTimeout)
	if abs, err := filepath.Abs(r.objects); err == nil {
		r.objects = abs
	}
	format, err := repoFormat(dir, gd)
	if err != nil {
		r.remove()
		return nil, err
	}
	if out, err := helperCommand("git", "init", "--quiet", "--bare", "--object-format="+format, tmp).CombinedOutput(); err != nil {
		r.remove()
		return nil, fmt.Errorf("submission %s: git init: %v: %s", dir, err, out)
	}
	budget := int64(maxRefBytes)
	err = filepath.WalkDir(gd, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(gd, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "refs" && d.IsDir():
			return nil
		case (rel == "HEAD" || rel == "packed-refs" || strings.HasPrefix(rel, "refs/")) && d.Type().IsRegular():
			return copyRef(p, filepath.Join(tmp, filepath.FromSlash(rel)), &budget)
		case strings.HasPrefix(rel, "refs/") && d.IsDir():
			return os.MkdirAll(filepath.Join(tmp, filepath.FromSlash(rel)), 0o755)
		case d.IsDir() && rel != ".":
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		r.remove()
		return nil, fmt.Errorf("submission %s: copy its refs: %w", dir, err)
	}
	return r, nil
}

// repoFormat is the object format (sha1 or sha256) of the hand-in's
// repository, read from its config as data (git config --file runs
// nothing): the clean repository must hash alike, whatever the grader's
// own default (GIT_DEFAULT_HASH, init.defaultObjectFormat). A repository
// that keeps its refs in another storage than loose files is refused: the
// refs are copied as files.
func repoFormat(dir, gd string) (string, error) {
	get := func(key string) string {
		out, _ := helperCommand("git", "config", "--file", filepath.Join(gd, "config"), "--get", key).Output()
		return strings.TrimSpace(string(out))
	}
	if rs := get("extensions.refStorage"); rs != "" && rs != "files" {
		return "", fmt.Errorf("%w: submission %s: its repository keeps refs as %s; hand in one with loose refs (a plain git clone)", errRefused, dir, rs)
	}
	format := get("extensions.objectFormat")
	if format == "" {
		format = "sha1"
	}
	return format, nil
}

func (r *cleanRepo) remove() {
	r.cancel()
	os.RemoveAll(r.dir)
}

// git runs git on the clean repository alone: --git-dir keeps git from
// looking anywhere else (a parent folder's repository, say).
func (r *cleanRepo) git(args ...string) *exec.Cmd {
	cmd := exec.CommandContext(r.ctx, "git", append([]string{"--git-dir=" + r.dir}, args...)...)
	cmd.Env = append(gitEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_OBJECT_DIRECTORY="+r.objects)
	inGroup(cmd)
	return cmd
}

// maxRefBytes bounds the refs a hand-in's repository may carry (HEAD,
// packed-refs and refs/ together; a class's have a few KiB).
const maxRefBytes = 16 << 20

// copyRef copies the ref file from to a new file to, within what is left
// of budget. Only regular files come here: a FIFO would hang the read.
func copyRef(from, to string, budget *int64) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, *budget+1))
	if err != nil {
		return err
	}
	if *budget -= int64(len(data)); *budget < 0 {
		return fmt.Errorf("%w: its refs take more than %d MiB", errRefused, maxRefBytes>>20)
	}
	return os.WriteFile(to, data, 0o644)
}

// gitCommit resolves ref (default HEAD) in the hand-in dir's repository.
func gitCommit(dir string, r *cleanRepo, ref string) (string, error) {
	if ref == "" {
		ref = "HEAD"
	}
	out, err := r.git("rev-parse", "--verify", "--quiet", ref+"^{commit}").Output()
	if err != nil {
		return "", fmt.Errorf("%w: submission %s: no commit %q in the repository", errRefused, dir, ref)
	}
	return strings.TrimSpace(string(out)), nil
}

// gitEntries reads the commit's tree through git archive, so the
// repository's working files (and its hooks and configuration) play no
// part. The archive is read as it comes, under tarEntries' limits, and git
// is killed at the first refusal: a 2 GiB blob read whole took 8.4 GB
// before its refusal.
func gitEntries(dir string, r *cleanRepo, commit string) ([]entry, error) {
	cmd := r.git("archive", "--format=tar", commit)
	stderr := &headTail{head: 64 << 10, tail: 4 << 10}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("submission %s: git archive %s: %v", dir, commit, err)
	}
	ents, terr := tarEntries(dir+"@"+commit[:min(12, len(commit))], out)
	if terr != nil {
		cmd.Process.Kill()
	} else {
		io.Copy(io.Discard, out) // the archive's end padding: git must not die of SIGPIPE
	}
	werr := cmd.Wait()
	// git's own failure (exit status > 0, not our kill) explains a broken
	// archive better than the tar reader does.
	if werr != nil && (terr == nil || cmd.ProcessState.ExitCode() > 0) {
		return nil, fmt.Errorf("submission %s: git archive %s: %v: %s", dir, commit, werr, strings.TrimSpace(stderr.String()))
	}
	return ents, terr
}

// gitOut runs git in dir and returns its standard output.
func gitOut(dir string, args ...string) (string, error) {
	out, err := helperCommand("git", append([]string{"-c", "safe.directory=*", "-C", dir}, args...)...).Output()
	return string(out), err
}

// repoEntries reads the hand-in dir's repository gd at ref (default HEAD)
// through a clean repository: the commit and its files.
func repoEntries(dir, gd, ref string) (string, []entry, error) {
	if err := checkOwnRepo(dir, gd); err != nil {
		return "", nil, err
	}
	r, err := newCleanRepo(dir, gd)
	if err != nil {
		return "", nil, err
	}
	defer r.remove()
	commit, err := gitCommit(dir, r, ref)
	if err != nil {
		return "", nil, err
	}
	ents, err := gitEntries(dir, r, commit)
	return commit, ents, err
}
