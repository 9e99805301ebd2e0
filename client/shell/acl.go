package shell

import (
	"fmt"
	"io"
	"strings"

	"zablab/mwzookeeper"
)

// parseACL reads an ACL as zkCli's AclParser does: entries separated by
// commas, each scheme:id:perms cut at the first and the last colon (so a
// digest's id keeps its inner colon: digest:user:hash:rw). Like zkCli it
// warns and goes on: an entry without two colons is skipped, an unknown
// permission letter ignored; the warnings go to warn. An ACL that ends up
// empty is the server's to refuse (InvalidACL), as with zkCli.
func parseACL(text string, warn io.Writer) []mwzookeeper.ACL {
	acl := []mwzookeeper.ACL{}
	for _, a := range strings.Split(text, ",") {
		first, last := strings.Index(a, ":"), strings.LastIndex(a, ":")
		if first == -1 || first == last {
			fmt.Fprintf(warn, "%s does not have the form scheme:id:perm\n", a)
			continue
		}
		acl = append(acl, mwzookeeper.ACL{
			ID:    mwzookeeper.ID{Scheme: a[:first], ID: a[first+1 : last]},
			Perms: parsePerms(a[last+1:], warn),
		})
	}
	return acl
}

// permLetters are zkCli's letters, in the order getAcl prints them.
var permLetters = []struct {
	letter byte
	perm   mwzookeeper.Perm
}{
	{'c', mwzookeeper.PermCreate}, {'d', mwzookeeper.PermDelete}, {'r', mwzookeeper.PermRead},
	{'w', mwzookeeper.PermWrite}, {'a', mwzookeeper.PermAdmin},
}

func parsePerms(text string, warn io.Writer) mwzookeeper.Perm {
	var p mwzookeeper.Perm
next:
	for i := 0; i < len(text); i++ {
		for _, l := range permLetters {
			if text[i] == l.letter {
				p |= l.perm
				continue next
			}
		}
		fmt.Fprintf(warn, "Unknown perm type: %c\n", text[i])
	}
	return p
}

// permString is ZKUtil.getPermString: "cdrwa" order.
func permString(p mwzookeeper.Perm) string {
	var b strings.Builder
	for _, l := range permLetters {
		if p&l.perm != 0 {
			b.WriteByte(l.letter)
		}
	}
	return b.String()
}

// printACL prints entries as zkCli's getAcl: the Id record as jute's
// toString writes it ("'world,'anyone" and a newline), then ": perms".
func printACL(w io.Writer, acl []mwzookeeper.ACL) {
	for _, a := range acl {
		fmt.Fprintf(w, "'%s,'%s\n: %s\n", csv(a.ID.Scheme), csv(a.ID.ID), permString(a.Perms))
	}
}

// csv is jute's Utils.toCSVString escaping, which Id.toString applies.
var csv = strings.NewReplacer("\x00", "%00", "\n", "%0A", "\r", "%0D", ",", "%2C", "}", "%7D", "%", "%25").Replace
