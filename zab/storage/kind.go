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
// kind in a folder of it that has no record yet. A lone replica's log is no
// part of any ensemble's history: three students' SingleZab replicas of
// make run each wrote their own entries 1 to 3, and restarted as MultiZab
// they elected a leader, found the same last zxid everywhere, synced
// nothing and served three different trees without a word. Both folders
// keep the record: the log is what a peer restores, and a snapshots'
// folder removed alone must not let a log of the other kind through. A
// store of either kind from before the file existed is taken as the kind
// that opens it, and so is an empty one (no epochs, snapshot or entries:
// a peer that failed or was killed at its first start left only its
// kind), as there is no history to mix. A store not opened from folders
// has nothing to check.
func (s *Store) CheckKind(kind string, empty bool) error {
	if s.snapDir == "" {
		return nil
	}
	dirs := []struct {
		path string
		log  bool
	}{{s.logDir, true}, {s.snapDir, false}}
	if s.snapDir == s.logDir {
		dirs = dirs[:1]
	}
	var unmarked []int
	for i, d := range dirs {
		was, err := readKind(d.path)
		switch {
		case err != nil:
			return s.inDir(d.log, err)
		case was == "" || was != kind && empty:
			unmarked = append(unmarked, i)
		case was != kind:
			return s.inDir(d.log, otherKind(d.path, was, kind))
		}
	}
	for _, i := range unmarked {
		err := writeFileAtomic(dirs[i].path, kindName, func(f *os.File) error {
			_, err := f.WriteString(kind + "\n")
			return err
		})
		if err != nil {
			return s.inDir(dirs[i].log, err)
		}
	}
	return nil
}

// readKind is the kind recorded in dir, "" where none is.
func readKind(dir string) (string, error) {
	path := filepath.Join(dir, kindName)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("storage: read %s: %w", path, err)
	}
	was := strings.TrimSpace(string(b))
	if _, ok := kindWords[was]; !ok {
		return "", fmt.Errorf("%w: %s: unknown kind %q, want %s or %s", ErrCorrupt, path, was, KindSingle, KindEnsemble)
	}
	return was, nil
}

// otherKind is the refusal of dir's data, written by a peer of kind was.
func otherKind(dir, was, kind string) error {
	return fmt.Errorf("%w: %s says this data was written by %s, and %s cannot start from it: "+
		"its log is no part of the other's history and would silently differ from it; "+
		"start from empty folders (remove this peer's dataLogDir and dataSnapDir)",
		ErrOtherKind, filepath.Join(dir, kindName), kindWords[was], kindWords[kind])
}
