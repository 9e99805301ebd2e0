package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Removing a log file gives its blocks back to the file system at once. On
// a file system mounted with online discard (common on virtual machines)
// the next journal commit then trims all of them, and every fdatasync on
// that file system waits for it: unlinking a 64 MiB log file stalled the
// other peers' syncs by 10-30 ms (measured under load). So a file that is
// to go is first renamed out of the log (retire, durable when RemoveBefore
// returns), then shrunk a step at a time with a pause between steps, and
// only then unlinked, on a goroutine of the log's own (releaser): no
// caller of RemoveBefore, the protocol goroutine installing a snapshot
// among them, waits for the pauses.
const (
	releasePrefix = "removing."
	releaseStep   = 4 << 20
	releasePause  = 10 * time.Millisecond
)

// retire renames the log files at paths, oldest first, out of the log and
// makes that durable: from then on no reader or recovery sees them, and a
// crash midway leaves a suffix of the log that still holds everything
// newer. It returns the new names of the files it renamed, and whether the
// renames are durable: only then may the releaser shrink them, since a
// lost rename must not bring back a cut log file.
func retire(dir string, paths []string) (renamed []string, durable bool, err error) {
	for _, p := range paths {
		to := filepath.Join(dir, releasePrefix+filepath.Base(p))
		if err = os.Rename(p, to); err != nil {
			err = fmt.Errorf("storage: remove log file: %w", err)
			break
		}
		renamed = append(renamed, to)
	}
	if serr := syncRetired(dir); serr != nil {
		return renamed, false, errors.Join(err, serr)
	}
	return renamed, true, err
}

// syncRetired makes the renames durable; a test makes it fail.
var syncRetired = syncDir

// releaseHold, set by a test, holds every release until it is closed (or
// the log closes): a caller that waited for the release would hang.
var releaseHold chan struct{}

// releaser deletes retired files in the background, oldest first.
type releaser struct {
	mu      sync.Mutex
	queue   []string
	running bool
	err     error         // every failure joined; such a file stays until the next opening
	hurry   chan struct{} // closed by stop: no more pauses
	stopped bool
	wg      sync.WaitGroup
}

func newReleaser() *releaser { return &releaser{hurry: make(chan struct{})} }

// add queues paths for release and starts the goroutine if it is idle.
func (r *releaser) add(paths []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue = append(r.queue, paths...)
	if !r.running && len(r.queue) > 0 {
		r.running = true
		r.wg.Add(1)
		go r.loop()
	}
}

func (r *releaser) loop() {
	defer r.wg.Done()
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		p := r.queue[0]
		r.queue = r.queue[1:]
		r.mu.Unlock()
		if err := release(p, r.hurry); err != nil {
			r.mu.Lock()
			r.err = errors.Join(r.err, err)
			r.mu.Unlock()
		}
	}
}

// stop releases what is left without pauses, waits for it and returns
// what failed.
func (r *releaser) stop() error {
	r.mu.Lock()
	if !r.stopped {
		r.stopped = true
		close(r.hurry)
	}
	r.mu.Unlock()
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// release deletes a retired file gently: shrinking it by releaseStep,
// pausing in between until hurry is closed, then unlinking what is left.
func release(path string, hurry <-chan struct{}) error {
	if releaseHold != nil {
		select {
		case <-releaseHold:
		case <-hurry:
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("storage: remove log file: %w", err)
	}
	for size := fi.Size() - releaseStep; size > 0; size -= releaseStep {
		if err := os.Truncate(path, size); err != nil {
			return fmt.Errorf("storage: shrink %s: %w", path, err)
		}
		t := time.NewTimer(releasePause) // pacing, not waiting for anything
		select {
		case <-t.C:
		case <-hurry:
			t.Stop()
		}
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
