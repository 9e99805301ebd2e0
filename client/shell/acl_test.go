package shell

import (
	"bytes"
	"reflect"
	"testing"

	"zablab/mwzookeeper"
)

func TestParseACL(t *testing.T) {
	all := mwzookeeper.PermAll
	for _, c := range []struct {
		text, warn string
		want       []mwzookeeper.ACL
	}{
		{"world:anyone:cdrwa", "", []mwzookeeper.ACL{{Perms: all, ID: mwzookeeper.Anyone}}},
		// a digest's id has a colon of its own: cut at the first and last
		{"digest:ada:Zm9v+/x=:rw", "", []mwzookeeper.ACL{{Perms: mwzookeeper.PermRead | mwzookeeper.PermWrite,
			ID: mwzookeeper.ID{Scheme: "digest", ID: "ada:Zm9v+/x="}}}},
		{"ip:127.0.0.1/8:r,auth::a", "", []mwzookeeper.ACL{
			{Perms: mwzookeeper.PermRead, ID: mwzookeeper.ID{Scheme: "ip", ID: "127.0.0.1/8"}},
			{Perms: mwzookeeper.PermAdmin, ID: mwzookeeper.ID{Scheme: "auth"}}}},
		// unknown letters are reported and ignored, as zkCli does
		{"world:anyone:rxz", "Unknown perm type: x\nUnknown perm type: z\n",
			[]mwzookeeper.ACL{{Perms: mwzookeeper.PermRead, ID: mwzookeeper.Anyone}}},
		// no scheme:id:perm form: skipped; the scheme itself is the server's to judge
		{"nonsense,world:r", "nonsense does not have the form scheme:id:perm\nworld:r does not have the form scheme:id:perm\n", []mwzookeeper.ACL{}},
		{"foo:bar:w", "", []mwzookeeper.ACL{{Perms: mwzookeeper.PermWrite, ID: mwzookeeper.ID{Scheme: "foo", ID: "bar"}}}},
	} {
		var warn bytes.Buffer
		got := parseACL(c.text, &warn)
		if !reflect.DeepEqual(got, c.want) || warn.String() != c.warn {
			t.Errorf("parseACL(%q) = %v, warned %q; want %v, %q", c.text, got, warn.String(), c.want, c.warn)
		}
	}
}

func TestPrintACL(t *testing.T) {
	var b bytes.Buffer
	printACL(&b, []mwzookeeper.ACL{{Perms: mwzookeeper.PermAll, ID: mwzookeeper.Anyone},
		{Perms: mwzookeeper.PermRead | mwzookeeper.PermCreate, ID: mwzookeeper.ID{Scheme: "digest", ID: "a,b:x"}}})
	if want := "'world,'anyone\n: cdrwa\n'digest,'a%2Cb:x\n: cr\n"; b.String() != want {
		t.Fatalf("printed %q, want %q", b.String(), want)
	}
}
