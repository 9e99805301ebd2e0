package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrLocked says a data folder is in use by another process (or another
// open store in this one): two peers on one folder would overwrite each
// other's log and epochs.
var ErrLocked = errors.New("storage: data folder in use")

// LockName is the lock file every data folder holds while a store is open.
const LockName = "zablab.lock"

// dirLock holds a data folder's lock file open. The lock is advisory
// (flock where the system has it), so a kill -9 of the holder releases it
// with its file descriptors; the file itself stays and only records the
// last holder's pid for the message.
type dirLock struct{ f *os.File }

// lockDir takes dir's lock or fails at once with ErrLocked naming the folder
// and the holder's pid.
func lockDir(dir string) (*dirLock, error) {
	name := filepath.Join(dir, LockName)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("storage: open lock file %s: %w", name, err)
	}
	if err := flockExclusive(f); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%w: %s is locked by process %s (lock file %s); stop that process or use another folder",
				ErrLocked, dir, holder, name)
		}
		return nil, fmt.Errorf("storage: lock %s: %w", name, err)
	}
	// Record our pid for the next one who finds the folder taken.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &dirLock{f: f}, nil
}

func readHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	if pid := strings.TrimSpace(string(b[:n])); pid != "" {
		return pid
	}
	return "unknown"
}

// unlock releases the lock; closing the file drops the flock.
func (l *dirLock) unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// lockDirs locks each distinct folder of dirs, in order; on failure it
// releases what it took.
func lockDirs(logDir, snapDir string) ([]*dirLock, error) {
	var locks []*dirLock
	seen := map[string]bool{}
	for i, d := range []string{logDir, snapDir} {
		abs, err := filepath.Abs(d)
		if err != nil {
			abs = d
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		l, err := lockDir(d)
		if err != nil {
			unlockAll(locks)
			return nil, &DirError{Dir: d, Log: i == 0, Err: err}
		}
		locks = append(locks, l)
	}
	return locks, nil
}

func unlockAll(locks []*dirLock) error {
	var errs []error
	for _, l := range locks {
		errs = append(errs, l.unlock())
	}
	return errors.Join(errs...)
}
