package storage

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"zablab/zab/core"
)

// castagnoli is the CRC32C table. CRC32C has hardware support on amd64 and
// arm64 and detects more error patterns than the IEEE polynomial.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// tmpSuffix marks a file that is still being written. A crash can leave one
// behind; it never holds anything a reader may use.
const tmpSuffix = ".tmp"

// zxidName names a file after a zxid with a fixed width, so that sorting
// names sorts zxids: "log.0000000100000003".
func zxidName(prefix string, z core.Zxid) string {
	return fmt.Sprintf("%s%016x", prefix, uint64(z))
}

// parseZxidName is the inverse of zxidName. It accepts only the canonical
// spelling, so a stray "log.1" or "log.0000000100000003.tmp" is ignored.
func parseZxidName(name, prefix string) (core.Zxid, bool) {
	digits, ok := strings.CutPrefix(name, prefix)
	if !ok || len(digits) != 16 {
		return 0, false
	}
	v, err := strconv.ParseUint(digits, 16, 64)
	if err != nil || zxidName(prefix, core.Zxid(v)) != name {
		return 0, false
	}
	return core.Zxid(v), true
}

// listZxidFiles returns the zxids of dir's files named by zxidName, ascending.
func listZxidFiles(dir, prefix string) ([]core.Zxid, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("storage: list %s: %w", dir, err)
	}
	var zs []core.Zxid
	for _, de := range des {
		if z, ok := parseZxidName(de.Name(), prefix); ok && de.Type().IsRegular() {
			zs = append(zs, z)
		}
	}
	slices.Sort(zs)
	return zs, nil
}

// syncParent makes a new folder's entry durable, and syncOpenedDir what a
// log's folder holds when the log is opened; tests record the calls.
var syncParent, syncOpenedDir = syncDir, syncDir

// syncDir makes dir's entries durable. Fsyncing a file does not make its
// creation, renaming or removal durable; only fsyncing the directory does.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("storage: open %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("storage: sync %s: %w", dir, err)
	}
	return nil
}

// writeFileAtomic replaces dir/name with what fill writes: temporary file,
// fsync, rename, fsync of the directory. A crash leaves either the old file
// or the new one, never a mix, and the new one is durable on return.
func writeFileAtomic(dir, name string, fill func(*os.File) error) error {
	tmp := filepath.Join(dir, name) + tmpSuffix
	if err := writeTmp(tmp, fill); err != nil {
		return err
	}
	return publishTmp(dir, tmp, name)
}

// writeTmp creates tmp with what fill writes and fsyncs it; on failure tmp
// is removed.
func writeTmp(tmp string, fill func(*os.File) error) error {
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("storage: create %s: %w", tmp, err)
	}
	err = fill(f)
	if err == nil {
		if err = f.Sync(); err != nil {
			err = fmt.Errorf("storage: sync %s: %w", tmp, err)
		}
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("storage: close %s: %w", tmp, cerr)
	}
	if err != nil {
		_ = os.Remove(tmp) // best effort: a leftover is ignored and overwritten
		return err
	}
	return nil
}

// publishTmp renames the durable tmp to dir/name and makes that durable.
func publishTmp(dir, tmp, name string) error {
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("storage: rename %s: %w", tmp, err)
	}
	return syncDir(dir)
}

// removeTmpFiles deletes leftovers of writes a crash interrupted.
func removeTmpFiles(dir, prefix string) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("storage: list %s: %w", dir, err)
	}
	for _, de := range des {
		n := de.Name()
		if strings.HasPrefix(n, prefix) && strings.HasSuffix(n, tmpSuffix) {
			if err := os.Remove(filepath.Join(dir, n)); err != nil {
				return fmt.Errorf("storage: remove leftover: %w", err)
			}
		}
	}
	return nil
}

// zeroBlock is what hasNonZero compares against.
var zeroBlock [64 << 10]byte

// hasNonZero reports whether f holds a non-zero byte in [from, to). Zeros
// past the last record are preallocated space; anything else is the rest of
// a write that did not finish.
func hasNonZero(f *os.File, from, to int64) (bool, error) {
	buf := make([]byte, len(zeroBlock))
	for off := from; off < to; {
		n := int(min(int64(len(buf)), to-off))
		m, err := f.ReadAt(buf[:n], off)
		// A whole-slice compare is many times faster than a byte loop: a
		// log file that came from a spare is 64 MiB of written zeros.
		if !bytes.Equal(buf[:m], zeroBlock[:m]) {
			return true, nil
		}
		if err != nil && err != io.EOF {
			return false, fmt.Errorf("storage: read %s: %w", f.Name(), err)
		}
		if m == 0 {
			break
		}
		off += int64(m)
	}
	return false, nil
}
