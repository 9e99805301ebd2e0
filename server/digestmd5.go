package server

import (
	"crypto/md5"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The names ZooKeeper's DIGEST-MD5 uses: the Java client and kazoo both
// put "zk-sasl-md5" where a host name would be, so the realm and the
// digest-uri are fixed, whatever host the client dialled.
const (
	saslRealm     = "zk-sasl-md5"
	saslDigestURI = "zookeeper/" + saslRealm
)

// errDigest marks a DIGEST-MD5 exchange that failed; the caller answers
// AuthFailed and closes the connection.
var errDigest = errors.New("DIGEST-MD5")

// digestServer is the server side of one DIGEST-MD5 exchange (RFC 2831
// section 2.1): an empty first token gets the challenge, the client's
// digest-response gets rspauth, and the exchange is then complete. It
// offers qop auth only (no integrity or confidentiality layer), as
// ZooKeeper's Java server does by default.
type digestServer struct {
	users map[string]string // user -> password
	rand  io.Reader
	nonce string // "" until the challenge is sent
	done  bool   // authenticated, or failed: no further step succeeds
	user  string // who authenticated
}

func newDigestServer(users map[string]string, rand io.Reader) *digestServer {
	return &digestServer{users: users, rand: rand}
}

// step answers one client token. It returns the server's token and, once
// the client proved its password, the user name.
func (d *digestServer) step(token []byte) (reply []byte, user string, err error) {
	switch {
	case d.done:
		return nil, "", fmt.Errorf("%w: exchange already complete (user %q)", errDigest, d.user)
	case d.nonce == "":
		if len(token) != 0 {
			d.done = true
			return nil, "", fmt.Errorf("%w: the client sent an initial response (%d bytes); want none", errDigest, len(token))
		}
		return d.challenge()
	}
	d.done = true // one response per nonce: a second try is a replay
	rspauth, user, err := d.verify(token)
	if err != nil {
		return nil, "", err
	}
	d.user = user
	return []byte("rspauth=" + rspauth), user, nil
}

// challenge makes the digest-challenge. Its directives and their order
// are those ZooKeeper 3.8 sends; qop is absent, which means "auth".
func (d *digestServer) challenge() ([]byte, string, error) {
	raw := make([]byte, 30) // 240 bits, 40 base64 characters, as Java's nonces
	if _, err := io.ReadFull(d.rand, raw); err != nil {
		return nil, "", fmt.Errorf("%w: making a nonce: %w", errDigest, err)
	}
	d.nonce = base64.StdEncoding.EncodeToString(raw)
	return []byte(`realm="` + saslRealm + `",nonce="` + d.nonce + `",charset=utf-8,algorithm=md5-sess`), "", nil
}

// verify checks a digest-response against the challenge sent and returns
// the rspauth value and the user.
func (d *digestServer) verify(token []byte) (string, string, error) {
	dir, err := parseDirectives(string(token))
	if err != nil {
		return "", "", err
	}
	user := dir["username"]
	if err := d.checkDirectives(dir); err != nil {
		return "", user, fmt.Errorf("user %q: %w", user, err)
	}
	password, ok := d.users[user]
	if !ok {
		return "", user, fmt.Errorf("%w: unknown user %q", errDigest, user)
	}
	r := digestResponse{user: user, realm: dir["realm"], password: password, nonce: dir["nonce"],
		cnonce: dir["cnonce"], nc: dir["nc"], qop: "auth", digestURI: dir["digest-uri"], authzid: dir["authzid"]}
	want := r.response("AUTHENTICATE")
	if subtle.ConstantTimeCompare([]byte(want), []byte(strings.ToLower(dir["response"]))) != 1 {
		return "", user, fmt.Errorf("%w: user %q: response does not match (wrong password?)", errDigest, user)
	}
	return r.response(""), user, nil
}

// checkDirectives checks everything but the response itself.
func (d *digestServer) checkDirectives(dir map[string]string) error {
	for _, k := range []string{"username", "nonce", "cnonce", "nc", "digest-uri", "response"} {
		if _, ok := dir[k]; !ok {
			return fmt.Errorf("%w: directive %s missing", errDigest, k)
		}
	}
	switch {
	case subtle.ConstantTimeCompare([]byte(dir["nonce"]), []byte(d.nonce)) != 1:
		return fmt.Errorf("%w: nonce %q is not the one this exchange issued", errDigest, dir["nonce"])
	case dir["nc"] != "00000001":
		return fmt.Errorf("%w: nc %q: want 00000001 (the nonce's first use)", errDigest, dir["nc"])
	case dir["realm"] != "" && dir["realm"] != saslRealm:
		return fmt.Errorf("%w: realm %q was not offered (want %q)", errDigest, dir["realm"], saslRealm)
	case dir["qop"] != "" && dir["qop"] != "auth":
		return fmt.Errorf("%w: qop %q was not offered (want auth)", errDigest, dir["qop"])
	case dir["digest-uri"] != saslDigestURI:
		return fmt.Errorf("%w: digest-uri %q: want %q", errDigest, dir["digest-uri"], saslDigestURI)
	case dir["charset"] != "" && !strings.EqualFold(dir["charset"], "utf-8"):
		return fmt.Errorf("%w: charset %q: want utf-8", errDigest, dir["charset"])
	}
	return nil
}

// digestResponse holds the values RFC 2831 section 2.1.2.1 hashes.
type digestResponse struct {
	user, realm, password, nonce, cnonce, nc, qop, digestURI, authzid string
}

// response is HEX(KD(HEX(H(A1)), nonce:nc:cnonce:qop:HEX(H(A2)))) with
// A2 = method ":" digest-uri: method "AUTHENTICATE" for the client's
// response, "" for the server's rspauth (section 2.1.3). qop auth has no
// ":" 32 zeros suffix.
func (r digestResponse) response(method string) string {
	a2 := md5hex(method + ":" + r.digestURI)
	return md5hex(md5hex(string(r.a1())) + ":" + r.nonce + ":" + r.nc + ":" + r.cnonce + ":" + r.qop + ":" + a2)
}

// a1 is H(user:realm:password) ":" nonce ":" cnonce [":" authzid]
// (md5-sess). With charset utf-8, the user, realm and password are hashed
// as ISO 8859-1 when all three fit in it, as section 2.1.2.1 says.
func (r digestResponse) a1() []byte {
	urp := r.user + ":" + r.realm + ":" + r.password
	h := md5.Sum(latin1IfPossible(urp))
	a1 := append(h[:], ":"+r.nonce+":"+r.cnonce...)
	if r.authzid != "" {
		a1 = append(a1, ":"+r.authzid...)
	}
	return a1
}

func latin1IfPossible(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return []byte(s)
		}
		out = append(out, byte(r))
	}
	return out
}

func md5hex(s string) string {
	h := md5.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// parseDirectives reads a comma-separated list of name=value and
// name="quoted value" (with \-escapes), as RFC 2831 section 7.1 and
// RFC 2616's #rule allow: spaces around elements, empty elements. A name
// given twice is an error: section 2.1.2 says most may appear only once.
func parseDirectives(s string) (map[string]string, error) {
	out := map[string]string{}
	for i := 0; ; {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',' || s[i] == '\r' || s[i] == '\n') {
			i++
		}
		if i == len(s) {
			return out, nil
		}
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return nil, fmt.Errorf("%w: directive %q has no value", errDigest, s[i:])
		}
		name := strings.ToLower(strings.TrimSpace(s[i : i+eq]))
		val, next, err := directiveValue(s, i+eq+1)
		if err != nil {
			return nil, fmt.Errorf("%w: directive %s: %w", errDigest, name, err)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%w: directive %s given twice", errDigest, name)
		}
		out[name], i = val, next
	}
}

// directiveValue reads the value starting at s[i] and returns it and the
// index after it (at a comma or the end).
func directiveValue(s string, i int) (string, int, error) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && s[i] == '"' {
		var b strings.Builder
		for i++; i < len(s); i++ {
			switch s[i] {
			case '\\':
				if i++; i == len(s) {
					return "", 0, errors.New("escape at the end")
				}
				b.WriteByte(s[i])
			case '"':
				rest := strings.TrimLeft(s[i+1:], " \t")
				if rest != "" && rest[0] != ',' {
					return "", 0, fmt.Errorf("text %q after the closing quote", rest)
				}
				return b.String(), len(s) - len(rest), nil
			default:
				b.WriteByte(s[i])
			}
		}
		return "", 0, errors.New("unterminated quoted string")
	}
	end := strings.IndexByte(s[i:], ',')
	if end < 0 {
		end = len(s) - i
	}
	return strings.TrimSpace(s[i : i+end]), i + end, nil
}
