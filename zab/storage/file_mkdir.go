package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// makeDir creates dir and its missing parents, and makes them durable:
// like a file's, a folder's entry survives a power loss only once the
// folder holding it is fsynced. Without that, a new peer's first
// acknowledged writes could vanish with the folder they were written to.
//
// Every folder that holds dir, up to the root, is fsynced, not only those
// holding the folders created now: a process killed between its MkdirAll
// and the fsyncs left all the folders it made (peer1 and peer1/log, say)
// in the page cache, and the restart cannot tell them from old ones. The
// holders are those of the real path, symbolic links followed, because
// the entries live where the kernel created them. This costs a few
// fsyncs of clean folders per opening, which return at once.
//
// When an fsync fails, the folders created now are removed again, so that
// the next opening creates and fsyncs them anew instead of taking them for
// durable. A holder the process may not read (a -wx folder) cannot be
// opened to fsync, and some file systems cannot fsync a folder (EINVAL,
// ENOTSUP, EROFS): those entries are left to the file system, as before
// this function synced anything, rather than refusing to start. The data
// folders' own file system is checked all the same, when the log's folder
// is fsynced at opening (syncOpenedDir).
func makeDir(dir string) error {
	missing := missingDirs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("storage: create %s: %w", dir, err)
	}
	holders, err := realHolders(dir)
	if errors.Is(err, fs.ErrPermission) {
		// A folder above that may not be searched hides the real path:
		// the raw parents are what can be synced, as before.
		holders, err = rawHolders(dir, missing), nil
	}
	if err == nil {
		for _, h := range holders {
			if err = syncParent(h); err != nil && !unsyncable(err) {
				break
			}
			err = nil
		}
	}
	if err != nil {
		for _, d := range missing { // the innermost first; all empty
			_ = os.Remove(d)
		}
		return fmt.Errorf("storage: create %s: %w", dir, err)
	}
	return nil
}

// unsyncable says whether err means that a folder cannot be fsynced here at
// all, as opposed to an fsync that failed.
func unsyncable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, errors.ErrUnsupported) ||
		errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EROFS)
}

// realHolders lists the folders holding dir's real path, outermost first:
// for /srv/zk/log that is /, /srv and /srv/zk. A relative dir is taken
// from the working folder as written, so that "link/.." is resolved by
// following the link first, as the kernel does.
func realHolders(dir string) ([]string, error) {
	abs := dir
	if !filepath.IsAbs(dir) {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("storage: working folder: %w", err)
		}
		abs = wd + string(filepath.Separator) + dir
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("storage: resolve %s: %w", dir, err)
	}
	var out []string
	for p := real; ; {
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		out = append(out, parent)
		p = parent
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// rawHolders are the folders holding dir and the missing ones as written
// (rawParent), outermost first.
func rawHolders(dir string, missing []string) []string {
	out := []string{rawParent(dir)}
	for _, d := range missing {
		if p := rawParent(d); p != out[len(out)-1] {
			out = append(out, p)
		}
	}
	slices.Reverse(out)
	return out
}

// missingDirs lists dir and those of its parents that do not exist, dir
// first. It walks the path as written (rawParent), not cleaned: the kernel
// resolves "link/.." after following the link.
func missingDirs(dir string) []string {
	var out []string
	for {
		if _, err := os.Lstat(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, dir)
		parent := rawParent(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}

// rawParent is the folder holding path as written: path without its last
// element, with no cleaning of "." or "..".
func rawParent(path string) string {
	trimmed := strings.TrimRight(path, string(filepath.Separator))
	if trimmed == "" {
		return string(filepath.Separator) // the root
	}
	i := strings.LastIndexByte(trimmed, filepath.Separator)
	switch {
	case i < 0:
		return "."
	case i == 0:
		return string(filepath.Separator)
	}
	return trimmed[:i]
}
