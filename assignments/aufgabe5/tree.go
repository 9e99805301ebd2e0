package aufgabe5

import (
	"slices"

	"zablab/mwzookeeper"
)

// znode is one node of the tree. Its stat's NumChildren and DataLength
// are kept current, so a read copies the stat as it is.
type znode struct {
	stat     mwzookeeper.MWStat
	data     []byte
	children map[string]struct{} // names; nil until the first child
	acl      []mwzookeeper.ACL   // beyond the sheet; mwzookeeper.OpenACL is shared, never changed
}

// tree is the replicated znode tree, kept by path, with an index of each
// session's ephemerals. It is not safe for concurrent use: the service's
// apply lock guards it.
type tree struct {
	nodes      map[string]*znode
	ephemerals map[int64]map[string]struct{}
	special    map[string]struct{} // containers and TTL nodes, for the leader's sweep (beyond the sheet)
	dataSize   int64               // bytes of data and names, for Stats
}

// zookeeperPath is the node every ZooKeeper tree starts with, next to "/".
const zookeeperPath = "/zookeeper"

// newTree returns the initial tree: "/" and "/zookeeper", stats all zero,
// as in ZooKeeper (A5.1).
func newTree() *tree {
	t := emptyTree()
	t.nodes["/"] = &znode{acl: mwzookeeper.OpenACL}
	t.link(zookeeperPath, &znode{acl: mwzookeeper.OpenACL})
	return t
}

// emptyTree returns a tree without nodes, not even "/".
func emptyTree() *tree {
	return &tree{nodes: map[string]*znode{}, ephemerals: map[int64]map[string]struct{}{}, special: map[string]struct{}{}}
}

// get returns the node at path or nil.
func (t *tree) get(path string) *znode { return t.nodes[path] }

// lookup is the tree as mwzookeeper.WatchTable.SetWatches sees it.
func (t *tree) lookup(path string) (mwzookeeper.MWStat, bool) {
	if n := t.nodes[path]; n != nil {
		return n.stat, true
	}
	return mwzookeeper.MWStat{}, false
}

// sortedChildren returns the names of n's children, sorted (A5.1).
func (n *znode) sortedChildren() []string {
	out := make([]string, 0, len(n.children))
	for c := range n.children {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// link inserts n at path under its existing parent, touching nothing of
// the parent's stat but NumChildren; the ephemeral index follows, and the
// index of containers and TTL nodes (A5.1; beyond the sheet).
func (t *tree) link(path string, n *znode) {
	parent := t.nodes[mwzookeeper.Parent(path)]
	if parent.children == nil {
		parent.children = map[string]struct{}{}
	}
	parent.children[mwzookeeper.Base(path)] = struct{}{}
	parent.stat.NumChildren = int32(len(parent.children))
	t.nodes[path] = n
	n.stat.DataLength = int32(len(n.data))
	t.dataSize += int64(len(path) + len(n.data))
	if o := n.stat.EphemeralOwner; o != 0 && !mwzookeeper.IsSessionOwner(o) {
		t.special[path] = struct{}{}
	} else if o != 0 {
		m := t.ephemerals[o]
		if m == nil {
			m = map[string]struct{}{}
			t.ephemerals[o] = m
		}
		m[path] = struct{}{}
	}
}

// unlink removes the childless node at path, the reverse of link (A5.1).
func (t *tree) unlink(path string) *znode {
	n := t.nodes[path]
	parent := t.nodes[mwzookeeper.Parent(path)]
	delete(parent.children, mwzookeeper.Base(path))
	parent.stat.NumChildren = int32(len(parent.children))
	delete(t.nodes, path)
	t.dataSize -= int64(len(path) + len(n.data))
	delete(t.special, path)
	if o := n.stat.EphemeralOwner; mwzookeeper.IsSessionOwner(o) {
		delete(t.ephemerals[o], path)
		if len(t.ephemerals[o]) == 0 {
			delete(t.ephemerals, o)
		}
	}
	return n
}

// setData replaces n's data and returns the old data (A5.1).
func (t *tree) setData(n *znode, data []byte) []byte {
	old := n.data
	t.dataSize += int64(len(data) - len(old))
	n.data = data
	n.stat.DataLength = int32(len(data))
	return old
}

// ephemeralsOf returns session's ephemeral paths, sorted, so that closing
// a session deletes them in the same order everywhere (A5.3).
func (t *tree) ephemeralsOf(session int64) []string {
	m := t.ephemerals[session]
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	// Deepest first is not needed (ephemerals have no children); sorting
	// makes the order independent of map iteration.
	slices.Sort(out)
	return out
}

// countEphemerals counts every ephemeral node.
func (t *tree) countEphemerals() int {
	n := 0
	for _, m := range t.ephemerals {
		n += len(m)
	}
	return n
}
