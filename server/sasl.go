package server

import (
	"crypto/rand"
	"fmt"
	"strings"

	"zablab/mwzookeeper"
	"zablab/properties"
)

// The SASL keys. ZooKeeper reads its users from a JAAS file's Server
// section (DigestLoginModule, user_<name>="<password>"); we read them from
// the properties instead.
const (
	// KeySASLUsers lists the DIGEST-MD5 users, comma-separated
	// user:password (a password may hold ':' but not ','). Absent: no
	// SASL, as a ZooKeeper without a JAAS Server section.
	KeySASLUsers = "sasl.users"
	// KeySASLSuperUser is ZooKeeper's system property zookeeper.superUser:
	// the SASL user who also gets ("super", ""). A user merely named
	// "super" gets nothing more.
	KeySASLSuperUser = "zookeeper.superUser"
)

// readSASL reads sasl.users and zookeeper.superUser into c.
func (c *Config) readSASL(p *properties.Properties) error {
	c.SASLSuperUser = orDefault(p, KeySASLSuperUser, "")
	v, ok := p.Get(KeySASLUsers)
	if !ok {
		return nil
	}
	c.SASLUsers = map[string]string{}
	for _, entry := range strings.Split(v, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		user, password, ok := strings.Cut(entry, ":")
		user = strings.TrimSpace(user)
		switch _, dup := c.SASLUsers[user]; {
		case !ok || user == "":
			return p.Errorf(KeySASLUsers, ErrConfig, "want user:password, got %q", entry)
		case dup:
			return p.Errorf(KeySASLUsers, ErrConfig, "user %q given twice", user)
		}
		c.SASLUsers[user] = password
	}
	return nil
}

// sasl answers a SASL request (opcode 102, GetSASLRequest{token}) as
// ZooKeeper 3.8's processSasl does; false: stop reading.
//
// Without sasl.users the answer is ZooKeeper's without a JAAS Server
// section: it has no SASL server for the connection, logs an error, and
// answers OK with a null token, the connection staying open (a client
// that waits for a challenge then waits until its session expires).
//
// With users, the DIGEST-MD5 exchange runs; success adds ("sasl", user)
// (and ("super", "") for zookeeper.superUser), failure answers AuthFailed
// and closes the connection, which kazoo reports as AuthFailedError.
// The replies carry zxid 0, as ZooKeeper's.
func (c *conn) sasl(s *slot) bool {
	c.enqueue(s)
	users := c.srv.cfg.SASLUsers
	if users == nil {
		c.log.Warn("SASL request, but no SASL users configured (" + KeySASLUsers + "): answered OK with no token")
		s.complete(&mwzookeeper.Response{})
		return true
	}
	if c.digest == nil {
		c.digest = newDigestServer(users, rand.Reader)
	}
	reply, user, err := c.digest.step(s.req.Data)
	if err != nil {
		err = fmt.Errorf("%w: session 0x%x: SASL: %w", mwzookeeper.ErrAuthFailed, c.session.Load(), err)
		c.log.WithError(err).Warn("SASL authentication failed; closing")
		s.complete(&mwzookeeper.Response{Err: err})
		c.drain()
		return false
	}
	if user != "" {
		c.log.WithField("user", user).Info("SASL authenticated")
		c.addIdentity(mwzookeeper.ID{Scheme: "sasl", ID: user})
		if user == c.srv.cfg.SASLSuperUser {
			c.addIdentity(mwzookeeper.ID{Scheme: "super"})
		}
	}
	s.complete(&mwzookeeper.Response{Data: reply})
	return true
}
