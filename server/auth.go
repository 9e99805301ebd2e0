package server

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"zablab/mwzookeeper"
	"zablab/mwzookeeper/wire"
)

// KeySuperDigest names the super user, as ZooKeeper's system property
// zookeeper.DigestAuthenticationProvider.superDigest: "super:" and the
// base64 SHA-1 of "super:password" (mwzookeeper.DigestOf). A client that
// adds that digest may do anything, whatever a node's ACL says.
const KeySuperDigest = "zookeeper.DigestAuthenticationProvider.superDigest"

// errAuthCut: an auth packet that does not fit its record.
var errAuthCut = errors.New("auth packet cut short")

// auth answers an auth packet as ZooKeeper 3.8's providers do: ip adds
// the address the connection already has, digest adds the identity
// user:base64(sha1(user:password)) (and ("super", "") first when it is the
// configured super digest). A scheme ZooKeeper has no provider for fails,
// "world" among them; the caller then closes the connection after the
// answer, as ZooKeeper does.
func (c *conn) auth(body []byte) error {
	if len(body) < 8 {
		return fmt.Errorf("%w: auth packet of %d bytes", errAuthCut, len(body))
	}
	_, scheme, auth, err := wire.DecodeAuth(body[8:])
	if err != nil {
		return fmt.Errorf("%w: %w", errAuthCut, err)
	}
	switch scheme {
	case "ip":
		return nil
	case "digest":
		id := mwzookeeper.ID{Scheme: "digest", ID: mwzookeeper.DigestOf(string(auth))}
		if c.srv.cfg.SuperDigest != "" && id.ID == c.srv.cfg.SuperDigest {
			c.addIdentity(mwzookeeper.ID{Scheme: "super"})
		}
		c.addIdentity(id)
		return nil
	}
	c.log.WithField("scheme", scheme).Info("auth refused: no provider for this scheme; closing")
	return mwzookeeper.ErrAuthFailed
}

// addIdentity adds id unless the connection has it: a new slice, so the
// requests already submitted keep theirs. Under c.mu, since event reads
// the identities on the Service's goroutine.
func (c *conn) addIdentity(id mwzookeeper.ID) {
	if slices.Contains(c.ids, id) {
		return
	}
	ids := append(slices.Clip(c.ids), id)
	c.mu.Lock()
	c.ids = ids
	c.mu.Unlock()
}

// identities is whoAmI's answer, as ZooKeeper's: each identity in the
// order added, the client's address first, a digest as its user alone.
func (c *conn) identities() []mwzookeeper.ClientInfo {
	out := make([]mwzookeeper.ClientInfo, 0, len(c.ids))
	for _, id := range c.ids {
		user := id.ID
		if id.Scheme == "digest" {
			user, _, _ = strings.Cut(user, ":")
		}
		out = append(out, mwzookeeper.ClientInfo{Scheme: id.Scheme, User: user})
	}
	return out
}

// beyondOnly says whether req needs a Service that does ZooKeeper's calls
// beyond the sheet (mwzookeeper.Beyond): one of those ops, a create
// (opcode create or create2 too) whose mode is a container or TTL mode,
// or a multi with such a create.
func beyondOnly(req *mwzookeeper.Request) bool {
	if req.Op.BeyondOnly() || req.Op.IsCreate() && extendedMode(req.Mode) {
		return true
	}
	for i := range req.Ops {
		if req.Ops[i].Op.BeyondOnly() || req.Ops[i].Op.IsCreate() && extendedMode(req.Ops[i].Mode) {
			return true
		}
	}
	return false
}

// extendedMode says whether m makes a container or a TTL node.
func extendedMode(m mwzookeeper.CreateMode) bool {
	return m == mwzookeeper.Container || m.IsTTL()
}

// noSASL is the scheme a sasl ACL entry gets on a server without SASL
// (sasl.users): ZooKeeper then has no sasl provider and refuses such an
// entry as InvalidACL, in its turn among the request's checks. The server
// decides it, and the Service's FixupACL, which knows no such scheme,
// refuses it at apply in ZooKeeper's order; the replicated request
// carries the renamed scheme, so replicas configured apart never disagree.
const noSASL = "sasl(not configured)"

// withoutSASL renames the sasl entries of req's ACLs to noSASL; the ACL
// slices are the request's own, decoded for it.
func withoutSASL(req *mwzookeeper.Request) {
	rename := func(acl []mwzookeeper.ACL) {
		for i := range acl {
			if acl[i].ID.Scheme == "sasl" {
				acl[i].ID.Scheme = noSASL
			}
		}
	}
	rename(req.ACL)
	for i := range req.Ops {
		rename(req.Ops[i].ACL)
	}
}
