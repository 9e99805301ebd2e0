package mwzookeeper

import "testing"

// TestValidExprAsJava checks validExpr against ZooKeeper 3.8's isValid of
// each provider: DigestAuthenticationProvider (id.split(":").length == 2),
// IPAuthenticationProvider (v4 address, optional /bits in 0..32, parts read
// by Integer.parseInt) and SASLAuthenticationProvider (new KerberosName(id)
// does not throw: a name that does not match
// ([^/@]*)(/([^/@]*))?@([^/@]*) is invalid only if it contains '@').
func TestValidExprAsJava(t *testing.T) {
	for _, c := range []struct {
		id   ID
		want bool
	}{
		{ID{"digest", "a:b"}, true},
		{ID{"digest", "a:b:"}, true},
		{ID{"digest", ":b"}, true},
		{ID{"digest", "a:"}, false},
		{ID{"digest", "a"}, false},
		{ID{"digest", "a:b:c"}, false},
		{ID{"digest", "::"}, false},
		{ID{"ip", "1.2.3.4/0"}, true},
		{ID{"ip", "01.2.3.4"}, true},
		{ID{"ip", "+1.2.3.4/+8"}, true},
		{ID{"ip", "1.2.3.4/33"}, false},
		{ID{"ip", "1.2.3.4/"}, false},
		{ID{"ip", "1.2.3"}, false},
		{ID{"ip", "256.2.3.4"}, false},
		{ID{"ip", "::1"}, false},
		{ID{"sasl", "alice"}, true},
		{ID{"sasl", "zk/host@REALM"}, true},
		{ID{"sasl", "a@b@c"}, false},   // KerberosName: malformed, contains '@'
		{ID{"sasl", "a/b/c@R"}, false}, // idem
		{ID{"sasl", "a/b/c"}, true},    // no '@': all service name
		{ID{"sasl", ""}, true},         // no match, no '@': serviceName ""
	} {
		if got := validExpr(c.id); got != c.want {
			t.Errorf("validExpr(%s:%q) = %v, Java's isValid says %v", c.id.Scheme, c.id.ID, got, c.want)
		}
	}
}

// getACL without ADMIN hides a digest's hash as ZooKeeper's
// id.replaceAll(":.*", ":x") does: from a colon to the end of its line.
func TestRedactedAsZooKeeper(t *testing.T) {
	for id, want := range map[string]string{
		"u:h1":        "u:x",
		"u:h1\nh2":    "u:x\nh2",
		"u:a\nb:c":    "u:x\nb:x",
		"u:a\r\nb":    "u:x\r\nb",
		"nohash":      "nohash",
		"u:a\u2028:b": "u:x\u2028:x",
	} {
		got := Redacted([]ACL{{Perms: PermRead, ID: ID{Scheme: "digest", ID: id}}})[0].ID.ID
		if got != want {
			t.Errorf("Redacted(digest %q) = %q, want %q", id, got, want)
		}
	}
}
