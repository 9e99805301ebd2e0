package storage

import "errors"

// OpenFileStore opens a peer's durable stores, creating the folders if
// missing, and locks each folder (LockName) until Close: a second store on
// the same folder, in this process or another, fails at once with
// ErrLocked naming the folder and the holder's pid. The stores: the log in logDir, the epochs and the snapshots in snapDir (as
// ZooKeeper keeps acceptedEpoch and currentEpoch beside its snapshots).
//
// The returned Store's Log is a *FileLog and its Snapshots a
// *FileSnapshots; the runtime should log FileLog.Repaired after opening and
// FileSnapshots.Skipped after Restore, and may call FileLog.RemoveBefore
// after a snapshot.
func OpenFileStore(logDir, snapDir string) (*Store, error) {
	inLog := func(err error) error { return &DirError{Dir: logDir, Log: true, Err: err} }
	inSnap := func(err error) error { return &DirError{Dir: snapDir, Err: err} }
	if err := makeDir(logDir); err != nil {
		return nil, inLog(err)
	}
	if err := makeDir(snapDir); err != nil {
		return nil, inSnap(err)
	}
	locks, err := lockDirs(logDir, snapDir)
	if err != nil {
		return nil, err
	}
	lg, err := OpenFileLog(logDir, FileLogOptions{})
	if err != nil {
		return nil, errors.Join(inLog(err), unlockAll(locks))
	}
	st, err := OpenFileStable(snapDir)
	if err != nil {
		return nil, errors.Join(inSnap(err), lg.Close(), unlockAll(locks))
	}
	sn, err := OpenFileSnapshots(snapDir, defaultKeep)
	if err != nil {
		return nil, errors.Join(inSnap(err), lg.Close(), unlockAll(locks))
	}
	return &Store{Log: lg, Stable: st, Snapshots: sn, locks: locks, logDir: logDir, snapDir: snapDir}, nil
}

// DirError is a failure that concerns one of a file store's two folders
// (OpenFileStore, Store.Restore). Its text is the error's own; Dir and Log
// let the runtime name the configuration key the folder comes from, which
// the path alone does not tell (the two folders may be one).
type DirError struct {
	Dir string // the folder as OpenFileStore was given it
	Log bool   // the log's folder (logDir), else the epochs' and snapshots' (snapDir)
	Err error
}

func (e *DirError) Error() string { return e.Err.Error() }
func (e *DirError) Unwrap() error { return e.Err }
