package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// tarGzEntries reads a gzipped tar archive's regular files. Links, devices
// and every other special entry are refused by name, as are absolute paths
// and .. elements: the archive is never unpacked onto the disk.
func tarGzEntries(file string) ([]entry, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", file, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: not a gzip archive: %v", errRefused, file, err)
	}
	return tarEntries(file, zr)
}

func tarEntries(origin string, r io.Reader) ([]entry, error) {
	tr := tar.NewReader(r)
	var ents []entry
	var b budget
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return ents, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: broken tar archive: %v", errRefused, origin, err)
		}
		name, err := checkName(origin, h.Name)
		if err != nil {
			return nil, err
		}
		switch h.Typeflag {
		case tar.TypeDir, tar.TypeXGlobalHeader:
			continue
		case tar.TypeReg:
		case tar.TypeSymlink, tar.TypeLink:
			return nil, fmt.Errorf("%w: %s: entry %q is a link (to %q)", errRefused, origin, h.Name, h.Linkname)
		default:
			return nil, fmt.Errorf("%w: %s: entry %q is not a regular file (tar type %q)", errRefused, origin, h.Name, h.Typeflag)
		}
		if err := b.take(origin, name, h.Size); err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(tr, maxFileSize+1))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: entry %q: %v", errRefused, origin, h.Name, err)
		}
		ents = append(ents, entry{name, data})
	}
}

// zipEntries reads a zip archive's regular files, with the same refusals.
func zipEntries(file string) ([]entry, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: not a zip archive: %v", errRefused, file, err)
	}
	defer zr.Close()
	var ents []entry
	var b budget
	for _, f := range zr.File {
		name, err := checkName(file, f.Name)
		if err != nil {
			return nil, err
		}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			continue
		case mode&os.ModeSymlink != 0:
			return nil, fmt.Errorf("%w: %s: entry %q is a symbolic link", errRefused, file, f.Name)
		case !mode.IsRegular():
			return nil, fmt.Errorf("%w: %s: entry %q is not a regular file (%v)", errRefused, file, f.Name, mode)
		}
		if err := b.take(file, name, int64(f.UncompressedSize64)); err != nil {
			return nil, err
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: entry %q: %v", errRefused, file, f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxFileSize+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: entry %q: %v", errRefused, file, f.Name, err)
		}
		ents = append(ents, entry{name, data})
	}
	return ents, nil
}

// isGitRepo: dir is a working clone (has .git) or a bare repository.
func isGitRepo(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return true
	}
	for _, p := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return false
		}
	}
	return true
}

// gitCommit resolves ref (default HEAD) in the repository dir.
func gitCommit(dir, ref string) (string, error) {
	if ref == "" {
		ref = "HEAD"
	}
	out, err := gitOut(dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%w: submission %s: no commit %q in the repository", errRefused, dir, ref)
	}
	return strings.TrimSpace(out), nil
}

// gitEntries reads the commit's tree through git archive, so the
// repository's working files (and its hooks) play no part. The archive is
// read as it comes, under tarEntries' limits, and git is killed at the
// first refusal: a 2 GiB blob read whole took 8.4 GB before its refusal.
func gitEntries(dir, commit string) ([]entry, error) {
	cmd := exec.Command("git", "-c", "safe.directory=*", "-C", dir, "archive", "--format=tar", commit)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
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
	cmd := exec.Command("git", append([]string{"-c", "safe.directory=*", "-C", dir}, args...)...)
	out, err := cmd.Output()
	return string(out), err
}
