package storage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Removing a log file gives its blocks back to the file system at once. On
// a file system mounted with online discard (common on virtual machines)
// the next journal commit then trims all of them, and every fdatasync on
// that file system waits for it: unlinking a 64 MiB log file stalled the
// other peers' syncs by 10-70 ms (docs/performance.md). So a file that is
// to go is first renamed out of the log, then shrunk a step at a time with
// a pause between steps, and only then unlinked.
const (
	releasePrefix = "removing."
	releaseStep   = 4 << 20
	releasePause  = 10 * time.Millisecond
)

// retire renames the log files at paths, oldest first, out of the log and
// makes that durable: from then on no reader or recovery sees them, and a
// crash midway leaves a suffix of the log that still holds everything
// newer. It returns the new names.
func retire(dir string, paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		to := filepath.Join(dir, releasePrefix+filepath.Base(p))
		if err := os.Rename(p, to); err != nil {
			return out, fmt.Errorf("storage: remove log file: %w", err)
		}
		out = append(out, to)
	}
	return out, syncDir(dir)
}

// release deletes a retired file gently: shrinking it by releaseStep,
// pausing in between, then unlinking what is left. Nothing waits on it but
// the next compaction and shutdown, so the pauses cost no request anything.
func release(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("storage: remove log file: %w", err)
	}
	for size := fi.Size() - releaseStep; size > 0; size -= releaseStep {
		if err := os.Truncate(path, size); err != nil {
			return fmt.Errorf("storage: shrink %s: %w", path, err)
		}
		time.Sleep(releasePause) // pacing, not waiting for anything
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("storage: remove log file: %w", err)
	}
	return nil
}

// removeRetired deletes the retired files a crash left in dir. At opening
// nothing else runs, so they go at once.
func removeRetired(dir string) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("storage: list %s: %w", dir, err)
	}
	for _, de := range des {
		if strings.HasPrefix(de.Name(), releasePrefix) && de.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, de.Name())); err != nil {
				return fmt.Errorf("storage: remove log file: %w", err)
			}
		}
	}
	return nil
}
