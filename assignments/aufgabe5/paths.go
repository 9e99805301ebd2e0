package aufgabe5

import (
	"fmt"
	"strings"

	"zablab/mwzookeeper"
)

// Paths of replicated writes. ZooKeeper refuses a character beyond U+FFFF
// in a new node's name (Java checks UTF-16 units, and those become
// surrogates), and so does mwzookeeper.ValidatePath since 2026-11-28;
// before, such names were taken, and logs and snapshots may hold such
// nodes. So, as ZooKeeper, a create, setData, setACL or check of txn
// format 4 or later is judged by the new rule (validWritePath); a delete,
// a read and a state transfer take them (validPath; ZooKeeper never fully
// validates a delete's or a read's path), so an old node can still be
// read and deleted, and every replica, and every replay, decides alike. The same
// holds for ZooKeeper's two system nodes below /zookeeper
// (systemNode).

// newRules is the first txn format whose creates refuse names beyond
// U+FFFF and whose creates and deletes treat /zookeeper/quota and
// /zookeeper/config as ZooKeeper's system nodes.
const newRules = 4

// validPath is mwzookeeper.ValidatePath with characters beyond U+FFFF
// taken.
func validPath(path string, sequential bool) error {
	return mwzookeeper.ValidatePath(strings.Map(func(r rune) rune {
		if r > 0xffff {
			return 'x'
		}
		return r
	}, path), sequential)
}

// validWritePath is the path check of a create, setData, setACL or check
// of txn format format.
func validWritePath(path string, sequential bool, format byte) error {
	if format >= newRules {
		return mwzookeeper.ValidatePath(path, sequential)
	}
	return validPath(path, sequential)
}

// systemNode says whether a write of txn format format may not create or
// delete path: "/" and "/zookeeper" always; "/zookeeper/quota" and
// "/zookeeper/config", which ZooKeeper always has (this tree does not:
// no quotas, no dynamic configuration), since format 4. The error is
// ZooKeeper's for the op: NodeExists for a create, BadArguments for a
// delete.
func systemNode(path string, format byte, create bool) error {
	switch {
	case path == "/" || path == zookeeperPath:
	case format >= newRules && (path == zookeeperPath+"/quota" || path == zookeeperPath+"/config"):
	default:
		return nil
	}
	if create {
		return fmt.Errorf("%w: %q, one of ZooKeeper's system nodes", mwzookeeper.ErrNodeExists, path)
	}
	return fmt.Errorf("%w: %q cannot be deleted", mwzookeeper.ErrBadArguments, path)
}
