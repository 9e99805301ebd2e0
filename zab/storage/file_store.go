package storage

import "errors"

// OpenFileStore opens a peer's durable stores, creating the folders if
// missing: the log in logDir, the epochs and the snapshots in snapDir (as
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
	lg, err := OpenFileLog(logDir, FileLogOptions{})
	if err != nil {
		return nil, err
	}
	st, err := OpenFileStable(snapDir)
	if err != nil {
		return nil, errors.Join(err, lg.Close())
	}
	sn, err := OpenFileSnapshots(snapDir, defaultKeep)
	if err != nil {
		return nil, errors.Join(err, lg.Close())
	}
	return &Store{Log: lg, Stable: st, Snapshots: sn}, nil
}
