package mwzookeeper

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Perm is the set of permissions an ACL entry grants, ZooKeeper's bits.
type Perm int32

// Permissions. CREATE and DELETE are checked on the parent of the node
// created or deleted; READ covers getData, getChildren and check; WRITE
// setData; ADMIN setACL (and reading an ACL unredacted).
const (
	PermRead Perm = 1 << iota
	PermWrite
	PermCreate
	PermDelete
	PermAdmin
	PermAll = PermRead | PermWrite | PermCreate | PermDelete | PermAdmin
)

// ID is an identity in an authentication scheme: ("world", "anyone"),
// ("ip", "10.0.0.0/8"), ("digest", "user:base64(sha1(user:password))"),
// ("sasl", "user"), ("super", "") and, in an ACL a client sends,
// ("auth", "") for "the identities I am authenticated as".
type ID struct {
	Scheme, ID string
}

// ACL is one entry of a node's access list: Perms for whoever matches ID.
type ACL struct {
	Perms Perm
	ID    ID
}

// Anyone is the identity every client has.
var Anyone = ID{Scheme: "world", ID: "anyone"}

// OpenACL is ZooKeeper's OPEN_ACL_UNSAFE: everything for anyone. Nodes
// share this one slice: never change it (where the system allows, its
// entry is read-only memory and a write faults: readonly.go).
var OpenACL = placeSharedSlice([]ACL{{Perms: PermAll, ID: Anyone}})

// IsOpen says whether acl is OpenACL's one entry.
func IsOpen(acl []ACL) bool { return len(acl) == 1 && acl[0] == OpenACL[0] }

// Allowed is ZooKeeper's ACL check: whether a client authenticated as
// auth may do what needs perm on a node whose ACL is acl. An empty ACL
// allows everything, a "super" identity may do anything, and an entry
// that grants any bit of perm lets in anyone its ID matches.
func Allowed(acl []ACL, auth []ID, perm Perm) bool {
	if len(acl) == 0 {
		return true
	}
	for _, id := range auth {
		if id.Scheme == "super" {
			return true
		}
	}
	for _, a := range acl {
		if a.Perms&perm == 0 {
			continue
		}
		if a.ID == Anyone {
			return true
		}
		for _, id := range auth {
			if id.Scheme == a.ID.Scheme && matches(id, a.ID.ID) {
				return true
			}
		}
	}
	return false
}

// CheckACL is Allowed as an error: ErrNoAuth naming the path.
func CheckACL(acl []ACL, auth []ID, perm Perm, path string) error {
	if Allowed(acl, auth, perm) {
		return nil
	}
	return fmt.Errorf("%w: %q", ErrNoAuth, path)
}

// matches says whether the client's identity id satisfies an ACL entry's
// expression in the same scheme: an address within the entry's network
// for ip, the same text for the others.
func matches(id ID, expr string) bool {
	if id.Scheme != "ip" {
		return id.ID == expr
	}
	prefix, ok := parseIPExpr(expr)
	if !ok {
		return false
	}
	addr, ok := parseIPv4(id.ID)
	return ok && prefix.Contains(addr)
}

// parseIPExpr reads an ip scheme's expression as ZooKeeper 3.8's
// IPAuthenticationProvider: an IPv4 address in four decimal parts, and
// maybe a prefix length ("10.0.0.0/8"; the bits past it need not be
// zero). ZooKeeper 3.8 reads no IPv6 here: such an ACL is invalid, and a
// client on IPv6 matches no ip entry.
func parseIPExpr(expr string) (netip.Prefix, bool) {
	host, bits, hasBits := strings.Cut(expr, "/")
	addr, ok := parseIPv4(host)
	if !ok {
		return netip.Prefix{}, false
	}
	n := 32
	if hasBits {
		var err error
		if n, err = strconv.Atoi(bits); err != nil || n < 0 || n > 32 {
			return netip.Prefix{}, false
		}
	}
	p, err := addr.Prefix(n)
	return p, err == nil
}

// parseIPv4 reads four dot-separated decimal numbers of 0 to 255, as
// Java's Integer.parseInt reads each (a sign and leading zeros allowed).
func parseIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return netip.Addr{}, false
	}
	var b [4]byte
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 32)
		if err != nil || v < 0 || v > 255 {
			return netip.Addr{}, false
		}
		b[i] = byte(v)
	}
	return netip.AddrFrom4(b), true
}

// authenticated says whether an identity of this scheme stands for a
// user, so that the "auth" scheme of an ACL may expand to it (ZooKeeper's
// isAuthenticated: digest and sasl, not ip).
func authenticated(scheme string) bool { return scheme == "digest" || scheme == "sasl" }

// validExpr says whether id is a well-formed ACL identity for its scheme
// (ZooKeeper's isValid): digest is two parts around a colon as Java
// splits them, ip an address or network; sasl takes any name.
func validExpr(id ID) bool {
	switch id.Scheme {
	case "digest": // Java's id.split(":").length == 2: trailing empty parts do not count
		parts := strings.Split(id.ID, ":")
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		return len(parts) == 2
	case "ip":
		_, ok := parseIPExpr(id.ID)
		return ok
	case "sasl": // new KerberosName(id) throws only on a malformed name with an '@'
		return !strings.Contains(id.ID, "@") || kerberosName.MatchString(id.ID)
	}
	return false
}

// kerberosName is ZooKeeper's KerberosName.nameParser, anchored as
// Matcher.matches: service[/host]@realm.
var kerberosName = regexp.MustCompile(`^([^/@]*)(/([^/@]*))?@([^/@]*)$`)

// FixupACL turns the ACL a client asks for into the one a node gets, as
// ZooKeeper's PrepRequestProcessor does: duplicates go, "world:anyone"
// stays, "auth" becomes every authenticated identity of auth (none:
// ErrInvalidACL), and any other entry must be valid for its scheme. An
// empty list is ErrInvalidACL. The result is OpenACL itself when it is
// OpenACL's entry, so that nodes share it.
func FixupACL(path string, acl []ACL, auth []ID) ([]ACL, error) {
	var out []ACL
	for i, a := range acl {
		if slices.Contains(acl[:i], a) {
			continue
		}
		switch {
		case a.ID == Anyone:
			out = append(out, a)
		case a.ID.Scheme == "auth":
			n := len(out)
			for _, id := range auth {
				if authenticated(id.Scheme) {
					out = append(out, ACL{Perms: a.Perms, ID: id})
				}
			}
			if len(out) == n {
				return nil, fmt.Errorf("%w: %q: scheme auth, but the client is authenticated as no user", ErrInvalidACL, path)
			}
		case !validExpr(a.ID):
			return nil, fmt.Errorf("%w: %q: %s:%s", ErrInvalidACL, path, a.ID.Scheme, a.ID.ID)
		default:
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %q: an empty ACL", ErrInvalidACL, path)
	}
	if IsOpen(out) {
		return OpenACL, nil
	}
	return out, nil
}

// Redacted is the ACL as a client without ADMIN on the node reads it:
// digest entries keep their user and show "x" for the hash (ZooKeeper
// 3.8's getACL).
func Redacted(acl []ACL) []ACL {
	out := make([]ACL, len(acl))
	for i, a := range acl {
		out[i] = a
		if a.ID.Scheme == "digest" {
			out[i].ID.ID = hashPart.ReplaceAllString(a.ID.ID, ":x")
		}
	}
	return out
}

// hashPart is what ZooKeeper's id.replaceAll(":.*", ":x") replaces: from a
// colon to the end of its line (Java's "." stops at every line
// terminator), once per line.
var hashPart = regexp.MustCompile(`:[^\n\r\x{85}\x{2028}\x{2029}]*`)

// DigestOf is the digest identity of "user:password" as ZooKeeper's
// DigestAuthenticationProvider makes it: user:base64(sha1(user:password)).
// A text without a colon is all user.
func DigestOf(userPassword string) string {
	user, _, _ := strings.Cut(userPassword, ":")
	sum := sha1.Sum([]byte(userPassword))
	return user + ":" + base64.StdEncoding.EncodeToString(sum[:])
}
