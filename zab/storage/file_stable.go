package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"zablab/zab/core"
)

// Stable file format, version 1, little-endian:
//
//	magic "ZSTB" | version uint32 | acceptedEpoch uint32 | currentEpoch uint32 | crc uint32
//
// crc is the CRC32C of the 16 bytes before it.
const (
	stableName    = "epochs"
	stableMagic   = "ZSTB"
	stableVersion = 1
	stableSize    = 20
)

// FileStable keeps acceptedEpoch and currentEpoch in one small file. Store
// replaces the file atomically (see writeFileAtomic), so a crash leaves the
// old epochs or the new ones; a damaged file is therefore never a torn write
// but a disk fault, and Load reports it instead of guessing.
type FileStable struct {
	dir  string
	path string
	mu   sync.Mutex // serializes writers of the temporary file
}

// OpenFileStable opens the stable store in dir, creating dir if it is
// missing. It reads the file once, so damage shows at startup.
func OpenFileStable(dir string) (*FileStable, error) {
	if err := makeDir(dir); err != nil {
		return nil, err
	}
	s := &FileStable{dir: dir, path: filepath.Join(dir, stableName)}
	if _, err := s.Load(); err != nil {
		return nil, err
	}
	return s, nil
}

// Load returns the stored epochs; both are zero if none were ever stored.
func (s *FileStable) Load() (core.StableState, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return core.StableState{}, nil
	}
	if err != nil {
		return core.StableState{}, fmt.Errorf("storage: read %s: %w", s.path, err)
	}
	st, reason := decodeStable(b)
	if reason != "" {
		return core.StableState{}, fmt.Errorf("%w: %s: %s", ErrCorrupt, s.path, reason)
	}
	return st, nil
}

func decodeStable(b []byte) (core.StableState, string) {
	switch {
	case len(b) != stableSize:
		return core.StableState{}, fmt.Sprintf("%d bytes, want %d", len(b), stableSize)
	case string(b[:4]) != stableMagic:
		return core.StableState{}, "not a stable-state file (bad magic)"
	case binary.LittleEndian.Uint32(b[4:]) != stableVersion:
		return core.StableState{}, fmt.Sprintf("unsupported format version %d", binary.LittleEndian.Uint32(b[4:]))
	case crc32.Checksum(b[:16], castagnoli) != binary.LittleEndian.Uint32(b[16:]):
		return core.StableState{}, "checksum mismatch"
	}
	return core.StableState{
		AcceptedEpoch: binary.LittleEndian.Uint32(b[8:]),
		CurrentEpoch:  binary.LittleEndian.Uint32(b[12:]),
	}, ""
}

func encodeStable(st core.StableState) []byte {
	b := make([]byte, 0, stableSize)
	b = append(b, stableMagic...)
	b = binary.LittleEndian.AppendUint32(b, stableVersion)
	b = binary.LittleEndian.AppendUint32(b, st.AcceptedEpoch)
	b = binary.LittleEndian.AppendUint32(b, st.CurrentEpoch)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// Store replaces the epochs; they are durable when it returns.
func (s *FileStable) Store(st core.StableState) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return writeFileAtomic(s.dir, stableName, func(f *os.File) error {
		if _, err := f.Write(encodeStable(st)); err != nil {
			return fmt.Errorf("storage: write %s: %w", f.Name(), err)
		}
		return nil
	})
}
