package aufgabe5

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"time"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// The snapshot format (A5.2), all integers varints:
//
//	"MWZK" version lastZxid
//	sessionCount {id timeout password owner}   sorted by id
//	nodeCount    {path stat null data acl}     "/" first, then depth first, children sorted
//	crc32 (IEEE, 4 bytes little endian) of everything before
//
// null is a byte, 1 for null data and 0 for data (empty or not): ZooKeeper
// keeps them apart. acl is the node's ACL as the replicated message codes
// one (appendACL; beyond the sheet): version 2 snapshots, from before
// ACLs, have none, and their nodes are open to anyone. owner is 0 for a session that never reconnected.
//
// Sorted sessions and children make the bytes a function of the state
// alone, so equal states give equal snapshots: the determinism tests
// compare them.

const (
	stateMagic   = "MWZK"
	stateVersion = 3
	// oldestStateVersion is the oldest snapshot still read.
	oldestStateVersion = 2
)

var errBadState = errors.New("aufgabe5: malformed state snapshot")

// writeState writes the replicated state. Only the goroutine that
// changes the state may call it, or the caller must hold s.mu (A5.2).
func (s *Service) writeState(w io.Writer) error {
	h := crc32.NewIEEE()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 64<<10)
	b := append([]byte(stateMagic), stateVersion)
	b = binary.AppendVarint(b, s.lastZxid)
	ids := make([]int64, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		sess := s.sessions[id]
		b = binary.AppendVarint(b, id)
		b = binary.AppendVarint(b, int64(sess.timeout))
		b = appendBytes(b, sess.password)
		b = binary.AppendUvarint(b, sess.owner)
	}
	b = binary.AppendUvarint(b, uint64(len(s.tree.nodes)))
	if _, err := bw.Write(b); err != nil {
		return err
	}
	if err := s.writeNode(bw, "/", s.tree.nodes["/"], b[:0]); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, h.Sum32()))
	return err
}

// writeNode writes n and, depth first in name order, its descendants (A5.2).
func (s *Service) writeNode(w *bufio.Writer, path string, n *znode, b []byte) error {
	b = appendString(b[:0], path)
	st := &n.stat
	for _, v := range [...]int64{st.Czxid, st.Mzxid, st.Pzxid, st.Ctime, st.Mtime,
		int64(st.Version), int64(st.Cversion), int64(st.Aversion), st.EphemeralOwner} {
		b = binary.AppendVarint(b, v)
	}
	if n.data == nil {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = appendBytes(b, n.data)
	b = appendACL(b, n.acl)
	if _, err := w.Write(b); err != nil {
		return err
	}
	for _, c := range n.sortedChildren() {
		cp := mwzookeeper.Join(path, c)
		if err := s.writeNode(w, cp, s.tree.nodes[cp], b); err != nil {
			return err
		}
	}
	return nil
}

// readState replaces the whole replicated state by a snapshot; an empty
// reader is the initial state. A bad snapshot changes nothing (A5.2).
func (s *Service) readState(r io.Reader, last zab.TxnCookie) error {
	all, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("aufgabe5: read state at %s: %w", last.Zxid, err)
	}
	t, sessions, zxid := newTree(), map[int64]*session{}, int64(0)
	if len(all) > 0 {
		if t, sessions, zxid, err = decodeState(all); err != nil {
			return fmt.Errorf("aufgabe5: state at %s: %w", last.Zxid, err)
		}
		s.restores.Add(1)
	}
	s.mu.Lock()
	s.tree, s.sessions, s.lastZxid = t, sessions, zxid
	now := time.Since(s.start)
	for _, sess := range sessions { // seen is local: a fresh timeout
		sess.seen = now
	}
	clear(s.expiring)
	s.mu.Unlock()
	return nil
}

// decodeState parses and checks a snapshot (A5.2).
func decodeState(all []byte) (*tree, map[int64]*session, int64, error) {
	if len(all) < len(stateMagic)+5 {
		return nil, nil, 0, fmt.Errorf("%w: %d bytes", errBadState, len(all))
	}
	body := all[:len(all)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(all[len(all)-4:]) {
		return nil, nil, 0, fmt.Errorf("%w: checksum mismatch", errBadState)
	}
	if string(body[:4]) != stateMagic || body[4] < oldestStateVersion || body[4] > stateVersion {
		return nil, nil, 0, fmt.Errorf("%w: not an MWZK snapshot of version %d to %d", errBadState, oldestStateVersion, stateVersion)
	}
	d := decoder{b: body, off: 5, version: body[4]}
	zxid := d.varint()
	sessions := map[int64]*session{}
	for n := d.uvarint(); n > 0 && d.err == nil; n-- {
		id := d.varint()
		sessions[id] = &session{timeout: d.int32(), password: slices.Clone(d.bytes(maxPassword)), owner: d.uvarint()}
	}
	t := emptyTree()
	count := d.uvarint()
	for i := uint64(0); i < count && d.err == nil; i++ {
		decodeNode(&d, t, i == 0)
	}
	if d.err == nil && d.off != len(body) {
		d.fail("%d bytes left over", len(body)-d.off)
	}
	if d.err != nil {
		return nil, nil, 0, fmt.Errorf("%w: %w", errBadState, d.err)
	}
	return t, sessions, zxid, nil
}

// decodeNode reads one node and links it under its parent, read before (A5.2).
func decodeNode(d *decoder, t *tree, root bool) {
	path := string(d.bytes(maxPathLen))
	var v [9]int64
	for i := range v {
		v[i] = d.varint()
	}
	null := d.byte()
	n := &znode{data: slices.Clone(d.bytes(mwzookeeper.MaxData))}
	switch {
	case null == 1:
		n.data = nil
	case null != 0:
		d.fail("null flag %d of %q", null, path)
	}
	n.acl = mwzookeeper.OpenACL
	if d.version >= 3 {
		if n.acl = d.acl(); n.acl == nil {
			d.fail("node %q without an ACL", path)
		}
	}
	n.stat = mwzookeeper.MWStat{Czxid: v[0], Mzxid: v[1], Pzxid: v[2], Ctime: v[3], Mtime: v[4],
		Version: int32(v[5]), Cversion: int32(v[6]), Aversion: int32(v[7]), EphemeralOwner: v[8],
		DataLength: int32(len(n.data))}
	switch {
	case d.err != nil:
	case root && path == "/":
		t.nodes["/"] = n
		t.dataSize += int64(len(n.data)) // as newTree: the root's name is not counted
	case root || validPath(path, false) != nil || path == "/":
		d.fail("node %q out of place", path)
	case t.nodes[path] != nil || t.nodes[mwzookeeper.Parent(path)] == nil:
		d.fail("node %q repeated or before its parent", path)
	default:
		t.link(path, n)
	}
}
