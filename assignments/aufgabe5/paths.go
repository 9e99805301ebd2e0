package aufgabe5

import (
	"strings"

	"zablab/mwzookeeper"
)

// Paths of replicated writes. ZooKeeper refuses characters beyond U+FFFF
// in a path (Java checks UTF-16 units, and those become surrogates), and
// so does mwzookeeper.ValidatePath since 2026-11-28; before, they were
// taken, and logs and snapshots may hold such nodes. A delivered write is
// judged by the rule of its txn format (version 4 refuses them, older
// ones took them), and a state transfer takes every path the old rule
// took: every replica, and every replay, decides alike.

// nonBMPRefused is the first txn format that refuses paths beyond U+FFFF.
const nonBMPRefused = 4

// validApplied is mwzookeeper.ValidatePath for a write of txn format
// format (0: a state transfer, judged by the old rule).
func validApplied(path string, sequential bool, format byte) error {
	if format >= nonBMPRefused {
		return mwzookeeper.ValidatePath(path, sequential)
	}
	return mwzookeeper.ValidatePath(strings.Map(func(r rune) rune {
		if r > 0xffff {
			return 'x'
		}
		return r
	}, path), sequential)
}
