package aufgabe5

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"zablab/mwzookeeper"
	"zablab/properties"
)

// ZooKeeper 3.8 beyond the sheet: ACLs, containers and TTL nodes. Not
// part of Aufgabe 5; the course provides this file as it is.

// extension is the part of a replica's configuration beyond the sheet.
type extension struct {
	ttlAllowed bool          // zookeeper.extendedTypesEnabled: TTL nodes may be created
	sweepEvery time.Duration // znode.container.checkIntervalMs: the leader's sweep
	lastSweep  time.Duration // since s.start, when the leader last swept
}

// readExtension reads the keys of ZooKeeper's extended node types, with
// ZooKeeper's defaults (TTL nodes off, a sweep a minute).
func readExtension(p *properties.Properties) (extension, error) {
	var e extension
	var err error
	if e.ttlAllowed, err = p.Bool(mwzookeeper.KeyExtendedTypes, false); err != nil {
		return e, err
	}
	if e.sweepEvery, err = p.Millis(mwzookeeper.KeyContainerInterval, time.Minute); err != nil {
		return e, err
	}
	if e.sweepEvery <= 0 {
		return e, p.Errorf(mwzookeeper.KeyContainerInterval, errBadKey, "want a whole number of milliseconds > 0, got 0")
	}
	return e, nil
}

// errBadKey marks a bad key beyond the sheet; the error names file and line.
var errBadKey = errors.New("aufgabe5: bad configuration")

// refuseTTL answers a request that would create a TTL node while they
// are off: Unimplemented, as ZooKeeper without extendedTypesEnabled. The
// proposer decides it, so replicas configured apart never disagree. In a
// multi the refused op becomes opTTLOff, so the multi fails at that op in
// its order, as ZooKeeper's would, and an op before it may fail first; the
// request is then a copy.
func (s *Service) refuseTTL(req *mwzookeeper.Request) (*mwzookeeper.Request, error) {
	if s.ext.ttlAllowed {
		return req, nil
	}
	if req.Op.IsCreate() && req.Mode.IsTTL() {
		return req, ttlOff(req.Path)
	}
	for i := range req.Ops { // no copy unless needed: this runs for every write
		if req.Ops[i].Op.IsCreate() && req.Ops[i].Mode.IsTTL() {
			r := *req
			r.Ops = slices.Clone(req.Ops)
			for j := i; j < len(r.Ops); j++ {
				if o := &r.Ops[j]; o.Op.IsCreate() && o.Mode.IsTTL() {
					// A create has no version: it keeps the op for the result.
					o.Version, o.Op = int32(o.Op), opTTLOff
				}
			}
			return &r, nil
		}
	}
	return req, nil
}

// opTTLOff stands in a multi's txn for a TTL create that its proposer
// refused; its Version holds the create's own op (resultOp). It is the
// opcode of an error result, which no client can send inside a multi
// (wire refuses it).
const opTTLOff = mwzookeeper.OpError

// resultOp is the op a multi's result names for o: the refused create's
// own for opTTLOff.
func resultOp(o *mwzookeeper.Op) mwzookeeper.OpCode {
	if o.Op == opTTLOff {
		return mwzookeeper.OpCode(o.Version)
	}
	return o.Op
}

// ttlOff is the error of a TTL create while TTL nodes are off.
func ttlOff(path string) error {
	return fmt.Errorf("%w: TTL node %q: %s is off", mwzookeeper.ErrUnimplemented, path, mwzookeeper.KeyExtendedTypes)
}

// checkCreateMode checks a create's flags and TTL as ZooKeeper's
// validateCreateRequest: a known mode, a TTL in 1..MaxTTL for a TTL mode,
// and createTTL only with a TTL mode.
func checkCreateMode(o *mwzookeeper.Op) error {
	switch {
	case !o.Mode.Known():
		return fmt.Errorf("%w: create mode %d at %q", mwzookeeper.ErrBadArguments, o.Mode, o.Path)
	case o.Mode.IsTTL() && (o.TTL <= 0 || o.TTL > mwzookeeper.MaxTTL):
		return fmt.Errorf("%w: TTL %d ms of %q: want 1 to %d", mwzookeeper.ErrBadArguments, o.TTL, o.Path, mwzookeeper.MaxTTL)
	case !o.Mode.IsTTL() && o.Op == mwzookeeper.OpCreateTTL:
		return fmt.Errorf("%w: createTTL of %q with mode %d, not a TTL mode", mwzookeeper.ErrBadArguments, o.Path, o.Mode)
	}
	return nil
}

// nodeACL is the ACL a created node gets: the one asked for, fixed up as
// ZooKeeper does; a request that names none (built in Go, never from the
// wire, where the server refuses an empty list) gets OPEN_ACL_UNSAFE.
func nodeACL(c *applyCtx, o *mwzookeeper.Op) ([]mwzookeeper.ACL, error) {
	if o.ACL == nil {
		return mwzookeeper.OpenACL, nil
	}
	return mwzookeeper.FixupACL(o.Path, o.ACL, c.auth)
}

// extendedOwner is the EphemeralOwner mark of a new container or TTL
// node, 0 for every other node: createContainer makes a container
// whatever its flags, a TTL mode a TTL node, and a plain create with the
// container flag a persistent node, as ZooKeeper 3.8's CreateTxn does.
func extendedOwner(o *mwzookeeper.Op) int64 {
	switch {
	case o.Op == mwzookeeper.OpCreateContainer:
		return mwzookeeper.ContainerOwner
	case o.Mode.IsTTL():
		return mwzookeeper.TTLOwner(o.TTL)
	}
	return 0
}

// permitted returns the node at path if the request may do what needs
// perm on it and it has version (-1: any): NoNode, NoAuth, BadVersion in
// ZooKeeper's order.
func (s *Service) permitted(c *applyCtx, path string, version int32, perm mwzookeeper.Perm) (*znode, error) {
	if err := validWritePath(path, false, c.format); err != nil { // setData and check
		return nil, err
	}
	n, err := s.existing(path, -1)
	if err != nil {
		return nil, err
	}
	if err := mwzookeeper.CheckACL(n.acl, c.auth, perm, path); err != nil {
		return nil, err
	}
	if version != -1 && version != n.stat.Version {
		return nil, fmt.Errorf("%w: %q has version %d, not %d", mwzookeeper.ErrBadVersion, path, n.stat.Version, version)
	}
	return n, nil
}

// setACL replaces a node's ACL: path, the new ACL (InvalidACL), NoNode,
// ADMIN on the node (NoAuth), the ACL version (BadVersion), as ZooKeeper
// orders them. Only aversion changes in the stat; no watch fires.
func (s *Service) setACL(c *applyCtx, o *mwzookeeper.Op) (mwzookeeper.MWStat, error) {
	if err := validWritePath(o.Path, false, c.format); err != nil {
		return mwzookeeper.MWStat{}, err
	}
	acl, err := mwzookeeper.FixupACL(o.Path, o.ACL, c.auth)
	if err != nil {
		return mwzookeeper.MWStat{}, err
	}
	n, err := s.existing(o.Path, -1)
	if err != nil {
		return mwzookeeper.MWStat{}, err
	}
	if err := mwzookeeper.CheckACL(n.acl, c.auth, mwzookeeper.PermAdmin, o.Path); err != nil {
		return mwzookeeper.MWStat{}, err
	}
	if o.Version != -1 && o.Version != n.stat.Aversion {
		return mwzookeeper.MWStat{}, fmt.Errorf("%w: ACL of %q has version %d, not %d", mwzookeeper.ErrBadVersion, o.Path, n.stat.Aversion, o.Version)
	}
	n.acl = acl
	n.stat.Aversion++
	return n.stat, nil
}

// deleteContainer is the leader's sweep, decided at apply: the node goes
// if it is a childless container that has had children, or a childless
// TTL node unchanged for longer than its TTL by the cookie's time.
func (s *Service) deleteContainer(c *applyCtx, o *mwzookeeper.Op) error {
	n := s.tree.get(o.Path)
	if n == nil {
		return fmt.Errorf("%w: %q", mwzookeeper.ErrNoNode, o.Path)
	}
	if !expired(n, c.ts) {
		return fmt.Errorf("%w: %q is no empty container and no expired TTL node", mwzookeeper.ErrBadVersion, o.Path)
	}
	s.deleteNode(c, o.Path)
	return nil
}

// expired says whether the sweep removes n at time now (ms): ZooKeeper's
// ContainerManager rules.
func expired(n *znode, now int64) bool {
	if len(n.children) > 0 {
		return false
	}
	if n.stat.EphemeralOwner == mwzookeeper.ContainerOwner {
		return n.stat.Cversion > 0
	}
	ttl, ok := mwzookeeper.NodeTTL(n.stat.EphemeralOwner)
	return ok && now-n.stat.Mtime > ttl
}

// sweepCandidates is the leader's list of nodes to remove now, once every
// sweep interval; the removal is proposed and decided at apply.
func (s *Service) sweepCandidates() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Since(s.start)
	if !s.serving || s.role != roleLeading || now-s.ext.lastSweep < s.ext.sweepEvery {
		return nil
	}
	s.ext.lastSweep = now
	ms := s.host.Now().UnixMilli()
	var out []string
	for p := range s.tree.special {
		if expired(s.tree.nodes[p], ms) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// BeyondTheSheet says that this Service does ZooKeeper 3.8's calls beyond
// the sheet (mwzookeeper.Beyond); the server answers them Unimplemented
// for one that says false.
func (s *Service) BeyondTheSheet() bool { return true }
