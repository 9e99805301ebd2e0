package server

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"zablab/properties"
)

// TestDigestRFC2831Example: the worked example of RFC 2831 section 4
// (user chris, password secret, qop auth, md5-sess): its response and
// rspauth values.
func TestDigestRFC2831Example(t *testing.T) {
	r := digestResponse{user: "chris", realm: "elwood.innosoft.com", password: "secret",
		nonce: "OA6MG9tEQGm2hh", cnonce: "OA6MHXh6VqTrRk", nc: "00000001", qop: "auth",
		digestURI: "imap/elwood.innosoft.com"}
	if got, want := r.response("AUTHENTICATE"), "d388dad90d4bbd760a152321f2143af7"; got != want {
		t.Errorf("response = %s, want the RFC's %s", got, want)
	}
	if got, want := r.response(""), "ea40f60335c427b5527b84dbabcdfffd"; got != want {
		t.Errorf("rspauth = %s, want the RFC's %s", got, want)
	}
}

// clientResponse is a client's side of the exchange, written out here
// apart from digestResponse so a mistake in one does not hide in both.
func clientResponse(challenge, user, password, cnonce string) string {
	dir, _ := parseDirectives(challenge)
	kd := func(parts ...string) string {
		h := md5.Sum([]byte(strings.Join(parts, ":")))
		return hex.EncodeToString(h[:])
	}
	urp := md5.Sum([]byte(user + ":" + dir["realm"] + ":" + password))
	a1 := kd(string(urp[:]), dir["nonce"], cnonce)
	resp := kd(a1, dir["nonce"], "00000001", cnonce, "auth", kd("AUTHENTICATE", saslDigestURI))
	return fmt.Sprintf(`username="%s",realm="%s",nonce="%s",cnonce="%s",nc=00000001,qop=auth,digest-uri="%s",response=%s`,
		user, dir["realm"], dir["nonce"], cnonce, saslDigestURI, resp)
}

var saslTestUsers = map[string]string{"jaasuser": "jaas_password", "super": "super_secret"}

func challengeOf(t *testing.T, d *digestServer) string {
	t.Helper()
	c, user, err := d.step(nil)
	if err != nil || user != "" {
		t.Fatalf("first step: %q, %q, %v", c, user, err)
	}
	return string(c)
}

func TestDigestExchange(t *testing.T) {
	d := newDigestServer(saslTestUsers, bytes.NewReader(bytes.Repeat([]byte{7}, 30)))
	c := challengeOf(t, d)
	if want := `realm="zk-sasl-md5",nonce="BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH",charset=utf-8,algorithm=md5-sess`; c != want {
		t.Fatalf("challenge %s\nwant      %s", c, want)
	}
	reply, user, err := d.step([]byte(clientResponse(c, "jaasuser", "jaas_password", "cn0nce")))
	if err != nil || user != "jaasuser" {
		t.Fatalf("response step: user %q, err %v", user, err)
	}
	dir, _ := parseDirectives(c)
	r := digestResponse{user: "jaasuser", realm: saslRealm, password: "jaas_password", nonce: dir["nonce"],
		cnonce: "cn0nce", nc: "00000001", qop: "auth", digestURI: saslDigestURI}
	if want := "rspauth=" + r.response(""); string(reply) != want {
		t.Errorf("reply %q, want %q", reply, want)
	}
	if _, _, err := d.step(nil); !errors.Is(err, errDigest) {
		t.Errorf("a step after completion: err %v, want errDigest", err)
	}
}

func TestDigestBadPassword(t *testing.T) {
	for _, tc := range []struct{ user, password, want string }{
		{"jaasuser", "wrong", `user "jaasuser": response does not match`},
		{"baduser", "badpassword", `unknown user "baduser"`},
	} {
		d := newDigestServer(saslTestUsers, bytes.NewReader(make([]byte, 30)))
		c := challengeOf(t, d)
		_, user, err := d.step([]byte(clientResponse(c, tc.user, tc.password, "x")))
		if !errors.Is(err, errDigest) || user != "" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s/%s: user %q, err %v; want errDigest saying %q", tc.user, tc.password, user, err, tc.want)
		}
	}
}

// TestDigestReplay: a response recorded from one exchange fails in
// another (its nonce is not the new one), and the same exchange takes no
// second response.
func TestDigestReplay(t *testing.T) {
	a := newDigestServer(saslTestUsers, bytes.NewReader(bytes.Repeat([]byte{1}, 30)))
	recorded := clientResponse(challengeOf(t, a), "jaasuser", "jaas_password", "c")
	if _, _, err := a.step([]byte(recorded)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.step([]byte(recorded)); !errors.Is(err, errDigest) {
		t.Errorf("the response again on its exchange: err %v, want errDigest", err)
	}
	b := newDigestServer(saslTestUsers, bytes.NewReader(bytes.Repeat([]byte{2}, 30)))
	challengeOf(t, b)
	if _, _, err := b.step([]byte(recorded)); !errors.Is(err, errDigest) || !strings.Contains(err.Error(), "nonce") {
		t.Errorf("replayed into another exchange: err %v, want errDigest about the nonce", err)
	}
}

func TestDigestRejects(t *testing.T) {
	d := newDigestServer(saslTestUsers, bytes.NewReader(make([]byte, 30)))
	if _, _, err := d.step([]byte("x")); !errors.Is(err, errDigest) {
		t.Errorf("an initial response: err %v, want errDigest", err)
	}
	good := func(d *digestServer) string {
		return clientResponse(challengeOf(t, d), "jaasuser", "jaas_password", "c")
	}
	for _, tc := range []struct{ name, from, to string }{
		{"digest-uri", saslDigestURI, "zookeeper/elsewhere"},
		{"nc", "nc=00000001", "nc=00000002"},
		{"qop", "qop=auth", "qop=auth-conf"},
		{"realm", `realm="zk-sasl-md5"`, `realm="other"`},
		{"duplicate", "nc=00000001", "nc=00000001,nc=00000001"},
	} {
		d := newDigestServer(saslTestUsers, bytes.NewReader(make([]byte, 30)))
		if _, _, err := d.step([]byte(strings.Replace(good(d), tc.from, tc.to, 1))); !errors.Is(err, errDigest) {
			t.Errorf("%s: err %v, want errDigest", tc.name, err)
		}
	}
}

func TestParseDirectives(t *testing.T) {
	got, err := parseDirectives(` a=1 , b="x\"y,z" ,, C = "" ,d=plain `)
	want := map[string]string{"a": "1", "b": `x"y,z`, "c": "", "d": "plain"}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{`a`, `a="x`, `a="x"y`, `a=1,a=2`} {
		if _, err := parseDirectives(bad); !errors.Is(err, errDigest) {
			t.Errorf("%q: err %v, want errDigest", bad, err)
		}
	}
}

func TestSASLConfig(t *testing.T) {
	p, _ := properties.LoadString("clientPort=2181\nsasl.users=jaasuser:jaas_password, super:a:b\nzookeeper.superUser=super\n")
	c, err := ConfigFromProperties(p, true)
	if err != nil || fmt.Sprint(c.SASLUsers) != "map[jaasuser:jaas_password super:a:b]" || c.SASLSuperUser != "super" {
		t.Errorf("got %v %q, %v", c.SASLUsers, c.SASLSuperUser, err)
	}
	for _, bad := range []string{"nopassword", ":pw", "a:1,a:2"} {
		p, _ := properties.LoadString("clientPort=2181\nsasl.users=" + bad + "\n")
		if _, err := ConfigFromProperties(p, true); !errors.Is(err, ErrConfig) {
			t.Errorf("sasl.users=%s: err %v, want ErrConfig", bad, err)
		}
	}
	p, _ = properties.LoadString("clientPort=2181\n")
	if c, err := ConfigFromProperties(p, true); err != nil || c.SASLUsers != nil {
		t.Errorf("no sasl.users: %v, %v; want nil users", c.SASLUsers, err)
	}
}
