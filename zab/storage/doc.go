// Package storage keeps what a Zab peer must not forget: the transaction log,
// the two epochs, and the application's snapshots. Each store is a small
// interface (Log, Stable, Snapshots) with an in-memory twin for tests and
// simulation (mem.go) and a durable file version (file_*.go). Store bundles
// the three and applies a core.Ready in the order Zab's persistence rule
// demands.
//
// # Files on disk
//
// OpenFileStore(logDir, snapDir) lays a peer's data out like ZooKeeper's
// dataLogDir and dataDir:
//
//	logDir/log.<zxid>        transaction log files, named after their first zxid
//	logDir/log.spare         the next log file, written with zeros ahead of time
//	snapDir/snapshot.<zxid>  snapshots, named after the last zxid they contain
//	snapDir/epochs           acceptedEpoch and currentEpoch
//
// Zxids in names have 16 hex digits, so names sort like zxids. Every file
// starts with a magic number and a format version, and everything is
// checksummed with CRC32C.
//
// The log appends length-prefixed, checksummed records to the newest file.
// Append only buffers; Sync writes the buffer and fsyncs once however many
// entries it holds, so a runtime that collects a batch of proposals pays for
// one fsync (group commit). Files grow in preallocated steps, which makes
// that fsync cheaper, and the reader stops at the zeros of the unused part.
// Cheaper still is a file whose blocks already hold zeros: fallocate's
// blocks are "unwritten", and the first write into each makes the fsync
// after it write the file's extent map too. So once a file is half full a
// goroutine of the log writes the next one with zeros (log.spare) and
// rotation renames it into place; the first file of a fresh log, which was
// fallocated, is left for the spare after 1 MiB (file_spare.go).
// FileLog.SetForceSync(false) (the peer key forceSync=no) makes Sync write
// without the fsync, for measuring what the disk costs; a file is still
// fsynced when it fills up and at Close, so only the newest can lose records.
// A file that reaches FileLogOptions.MaxFileBytes is fsynced and closed, and
// the next record starts a new one; RemoveBefore deletes files a snapshot
// has made unnecessary. It renames them to "removing.<name>" (durably: from
// then on they are not part of the log) and returns; a goroutine of the log
// then gives their space back a few MiB at a time before unlinking them,
// because freeing a whole 64 MiB file at once stalls every fdatasync on a
// file system mounted with online discard. Close deletes what is left at
// once; opening a log removes "removing." files a crash left.
//
// # Crashes
//
// A crash during a write can leave the newest log file with a torn tail: a
// partial or garbled record, or garbage after the zeros. OpenFileLog cuts it
// off and reports the cut in FileLog.Repaired, and the runtime should log it:
// only unsynced records can be lost that way, and Zab never acknowledged
// them. Damage anywhere else, in an older log file or in the epochs file, is
// a disk fault rather than a torn write, and opening fails with an error
// wrapping ErrCorrupt that names the file and offset, instead of quietly
// dropping acknowledged history.
//
// The epochs and the snapshots are replaced atomically (temporary file,
// fsync, rename, fsync of the folder), so a crash leaves the old version or
// the new one. Latest skips a snapshot whose checksum fails, falls back to
// the next older one and names the skipped file in FileSnapshots.Skipped.
package storage
