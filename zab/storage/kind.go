package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOtherKind: a store was written by a lone peer (SingleZab) and is
// opened by one of an ensemble (MultiZab), or the other way round.
var ErrOtherKind = errors.New("storage: written by another kind of peer")

// kindName is the file beside the epochs that names the kind of peer that
// writes the store.
const kindName = "peerkind"

// The kinds of peer CheckKind tells apart.
const (
	KindSingle   = "single"   // SingleZab: a replica on its own
	KindEnsemble = "ensemble" // MultiZab: one peer of an ensemble
)

// kindWords describe a kind in an error.
var kindWords = map[string]string{
	KindSingle:   "a replica on its own (SingleZab)",
	KindEnsemble: "a peer of an ensemble (MultiZab)",
}

// CheckKind refuses a store that another kind of peer wrote, and records
// kind in one it opens for the first time. A lone replica's log is no part
// of any ensemble's history: three students' SingleZab replicas of make
// run each wrote their own entries 1 to 3, and restarted as MultiZab they
// elected a leader, found the same last zxid everywhere, synced nothing
// and served three different trees without a word. A store of either kind
// from before the file existed is taken as the kind that opens it. A
// store not opened from folders has nothing to check.
func (s *Store) CheckKind(kind string) error {
	if s.snapDir == "" {
		return nil
	}
	path := filepath.Join(s.snapDir, kindName)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = writeFileAtomic(s.snapDir, kindName, func(f *os.File) error {
			_, err := f.WriteString(kind + "\n")
			return err
		})
		return s.inDir(false, err)
	case err != nil:
		return s.inDir(false, fmt.Errorf("storage: read %s: %w", path, err))
	}
	was := strings.TrimSpace(string(b))
	if was == kind {
		return nil
	}
	words, ok := kindWords[was]
	if !ok {
		return s.inDir(false, fmt.Errorf("%w: %s: unknown kind %q, want %s or %s", ErrCorrupt, path, was, KindSingle, KindEnsemble))
	}
	return s.inDir(false, fmt.Errorf("%w: %s says this data was written by %s, and %s cannot start from it: "+
		"its log is no part of the other's history and would silently differ from it; start from empty folders (remove %s and its log folder)",
		ErrOtherKind, path, words, kindWords[kind], s.snapDir))
}
