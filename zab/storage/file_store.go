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
	for _, dir := range []string{logDir, snapDir} {
		if err := makeDir(dir); err != nil {
			return nil, err
		}
	}
	locks, err := lockDirs(logDir, snapDir)
	if err != nil {
		return nil, err
	}
	lg, err := OpenFileLog(logDir, FileLogOptions{})
	if err != nil {
		return nil, errors.Join(err, unlockAll(locks))
	}
	st, err := OpenFileStable(snapDir)
	if err != nil {
		return nil, errors.Join(err, lg.Close(), unlockAll(locks))
	}
	sn, err := OpenFileSnapshots(snapDir, defaultKeep)
	if err != nil {
		return nil, errors.Join(err, lg.Close(), unlockAll(locks))
	}
	return &Store{Log: lg, Stable: st, Snapshots: sn, locks: locks}, nil
}
