package client

import (
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/mwzookeeper"
)

// ACLs and authentication (beyond the sheet). The service of Aufgabe 5
// keeps every node open (mwzookeeper.OpenACL); these calls are for a
// service that checks ACLs, and for Apache ZooKeeper.

// OpenACL is everything for anyone (ZooKeeper's OPEN_ACL_UNSAFE), the ACL
// Create and CreateMode give.
func OpenACL() []mwzookeeper.ACL { return []mwzookeeper.ACL{mwzookeeper.OpenACL[0]} }

// CreatorAllACL is everything for the identities the session authenticated
// as (ZooKeeper's CREATOR_ALL_ACL, scheme "auth"): the service refuses it
// with ErrInvalidACL unless AddAuth came first.
func CreatorAllACL() []mwzookeeper.ACL {
	return []mwzookeeper.ACL{{Perms: mwzookeeper.PermAll, ID: mwzookeeper.ID{Scheme: "auth"}}}
}

// ReadOnlyACL lets anyone read and nobody change (READ_ACL_UNSAFE).
func ReadOnlyACL() []mwzookeeper.ACL {
	return []mwzookeeper.ACL{{Perms: mwzookeeper.PermRead, ID: mwzookeeper.Anyone}}
}

// DigestACL grants perms to the digest user with this password; the hash
// is computed here, so the password never travels in an ACL.
func DigestACL(perms mwzookeeper.Perm, user, password string) []mwzookeeper.ACL {
	id := mwzookeeper.ID{Scheme: "digest", ID: mwzookeeper.DigestOf(user + ":" + password)}
	return []mwzookeeper.ACL{{Perms: perms, ID: id}}
}

func toZKACL(acl []mwzookeeper.ACL) []zk.ACL {
	out := make([]zk.ACL, len(acl))
	for i, a := range acl {
		out[i] = zk.ACL{Perms: int32(a.Perms), Scheme: a.ID.Scheme, ID: a.ID.ID}
	}
	return out
}

func fromZKACL(acl []zk.ACL) []mwzookeeper.ACL {
	out := make([]mwzookeeper.ACL, len(acl))
	for i, a := range acl {
		out[i] = mwzookeeper.ACL{Perms: mwzookeeper.Perm(a.Perms), ID: mwzookeeper.ID{Scheme: a.Scheme, ID: a.ID}}
	}
	return out
}

// CreateACL is CreateMode with the node's ACL: one of Aufgabe 5's four
// modes (TTL nodes and containers have their own calls).
func (z *MWZooKeeper) CreateACL(path string, data []byte, mode mwzookeeper.CreateMode, acl []mwzookeeper.ACL) (string, error) {
	z.async.wait()
	if err := z.prepareACL(path, mode.IsSequential(), data, acl); err != nil {
		return "", err
	}
	if !mode.Valid() {
		return "", fmt.Errorf("create %s: mode %d: use CreateTTL or CreateContainer: %w", path, mode, mwzookeeper.ErrBadArguments)
	}
	name, err := z.conn.Create(path, data, int32(mode), toZKACL(acl))
	return name, z.wrap("create", path, err)
}

// CreateTTL makes a TTL node (mode PersistentTTL or PersistentSeqTTL):
// the service removes it once it has had no children and no change for
// ttl. ZooKeeper refuses TTL nodes (ErrUnimplemented) unless started with
// zookeeper.extendedTypesEnabled=true.
func (z *MWZooKeeper) CreateTTL(path string, data []byte, mode mwzookeeper.CreateMode, acl []mwzookeeper.ACL, ttl time.Duration) (string, error) {
	z.async.wait()
	if err := z.prepareACL(path, mode.IsSequential(), data, acl); err != nil {
		return "", err
	}
	ms := ttl.Milliseconds()
	if !mode.IsTTL() || ms <= 0 || ms > mwzookeeper.MaxTTL {
		// Checked here: go-zk would send a TTL of 0, and call a wrong
		// mode ErrInvalidFlags without saying which.
		return "", fmt.Errorf("create %s: mode %d, ttl %v: a TTL mode and 1ms..%dms: %w",
			path, mode, ttl, mwzookeeper.MaxTTL, mwzookeeper.ErrBadArguments)
	}
	name, err := z.conn.CreateTTL(path, data, int32(mode), toZKACL(acl), ttl)
	return name, z.wrap("create", path, err)
}

// CreateContainer makes a container: a node the service removes once its
// last child is gone (a lock's or a queue's parent).
func (z *MWZooKeeper) CreateContainer(path string, data []byte, acl []mwzookeeper.ACL) (string, error) {
	z.async.wait()
	if err := z.prepareACL(path, false, data, acl); err != nil {
		return "", err
	}
	name, err := z.conn.CreateContainer(path, data, int32(mwzookeeper.Container), toZKACL(acl))
	return name, z.wrap("create", path, err)
}

// GetACL returns a node's ACL and stat (the stat's Aversion is what
// SetACL's version compares with). Without ADMIN on the node, ZooKeeper
// 3.8 shows digest entries' hashes as "x".
func (z *MWZooKeeper) GetACL(path string) ([]mwzookeeper.ACL, mwzookeeper.MWStat, error) {
	z.async.wait()
	if err := z.prepare("getACL", path, false, nil); err != nil {
		return nil, mwzookeeper.MWStat{}, err
	}
	acl, st, err := z.conn.GetACL(path)
	if err != nil {
		return nil, mwzookeeper.MWStat{}, z.wrap("getACL", path, err)
	}
	return fromZKACL(acl), statOf(st), nil
}

// SetACL replaces a node's ACL if its ACL version is aversion (-1: any)
// and returns the new stat. It needs ADMIN on the node.
func (z *MWZooKeeper) SetACL(path string, acl []mwzookeeper.ACL, aversion int32) (mwzookeeper.MWStat, error) {
	z.async.wait()
	if err := z.prepare("setACL", path, false, nil); err != nil {
		return mwzookeeper.MWStat{}, err
	}
	st, err := z.conn.SetACL(path, toZKACL(acl), aversion)
	if err != nil {
		return mwzookeeper.MWStat{}, z.wrap("setACL", path, err)
	}
	return statOf(st), nil
}

// AddAuth adds an identity to the session's connection: scheme "digest"
// with auth "user:password". A wrong one ends the session on ZooKeeper
// (ErrAuthFailed). go-zk keeps every identity added and sends it again
// on each new connection, before any other request, so the session keeps
// its identities across a reconnect.
func (z *MWZooKeeper) AddAuth(scheme string, auth []byte) error {
	z.async.wait()
	if err := z.check("addAuth", scheme); err != nil {
		return err
	}
	return z.wrap("addAuth", scheme, z.conn.AddAuth(scheme, auth))
}
