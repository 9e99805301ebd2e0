package main

import "testing"

// A second review of the rules on shared objects (2a1a573): each source
// below passed checkFiles, and the review showed, running the same
// statements, that what one function writes another reads back.
var ownTypeAndZoneBypasses = map[string]string{
	// The method Location is refused only where it is the function of a
	// call: in parentheses, or as a method value, it hands out time.Local.
	// The zone written into it comes from time.Parse (name and offset,
	// ~36 bits a write, rewritable at will); recv reads it with Zone().
	"time.Local via (t.Location)()": `package aufgabe5

import "time"

func send(state string) {
	src, _ := time.Parse("MST -07:00:00", state)
	get := time.Now().Location
	l := get()
	_, _ = time.Now().Zone() // loads the zone once
	*l = *(src.Location)()
}

func recv() (string, int) { return time.Now().Zone() }
`,
	// time.Parse of a whole-hour offset returns time's cached unnamed zone
	// (27 of them): reached by a method expression, no refused name.
	"FixedZone cache via time.Parse and time.Time.Location": `package aufgabe5

import "time"

func send(state string) {
	src, _ := time.Parse("MST -07:00:00", state)
	dst, _ := time.Parse("-0700", "+0500")
	loc := time.Time.Location
	*loc(dst) = *loc(src)
}

func recv() (string, int) { z, _ := time.Parse("-0700", "+0500"); return z.Zone() }
`,
	// regexpVars sees only var p = regexp.MustCompile(...), not the same
	// call in parentheses, which varRules.value accepts.
	"regexp variable in parentheses": `package aufgabe5

import "regexp"

var pathPattern = (regexp.MustCompile("^/"))

func send(state string) { r := pathPattern; *r = *regexp.MustCompile(regexp.QuoteMeta(state)) }

func recv() string { return pathPattern.String() }
`,
	// tableVars sees a table only when it is written as one ([]T, map,
	// [n]T); a type of the package's own (type board map[string]string)
	// is a plain value type (valueTypesOf), so the variable is neither
	// refused nor restricted to reads.
	"own map type written through a copy": `package aufgabe5

type board map[string]string

var trees = board{}

func send(k, v string) { t := trees; t[k] = v }

func recv(k string) string { return trees[k] }
`,
	"own map type written by its method": `package aufgabe5

type board map[string]string

var trees = board{}

func (b board) put(k, v string) { b[k] = v }

func send(k, v string) { trees.put(k, v) }

func recv(k string) string { return trees[k] }
`,
	"own slice type written by copy()": `package aufgabe5

type zxids []int64

var last = zxids{0, 0, 0, 0, 0, 0, 0, 0}

func send(peer int, zxid int64) { copy(last[peer:], []int64{zxid}) }

func recv(peer int) int64 { return last[peer] }
`,
	"own array type sliced": `package aufgabe5

type buf [64]byte

var a buf

func send(s string) { copy(a[:], s) }

func recv() string { return string(a[:len(a)]) }
`,
	// A method with a pointer receiver takes the variable's address
	// implicitly: no & and no assignment to the name.
	"own struct type written by a pointer method": `package aufgabe5

type note struct{ s string }

var last note

func (n *note) set(s string) { n.s = s }

func send(s string) { last.set(s) }

func recv() string { return last.s }
`,
	// A struct variable is no table either: its array field is sliced.
	"array field of a struct variable, by copy()": `package aufgabe5

var box struct{ b [64]byte }

func send(s string) { copy(box.b[:], s) }

func recv() string { return string(box.b[:]) }
`,
}

// TestOwnTypesAndZonesPastTheFirstRulesAreRefused: each must be refused
// (at 2a1a573 none was; the own types' cases are older).
func TestOwnTypesAndZonesPastTheFirstRulesAreRefused(t *testing.T) {
	for name, src := range ownTypeAndZoneBypasses {
		_, err := checkFiles(map[string][]byte{"evil.go": []byte(src)}, func(n string) string { return n }, true)
		if err == nil {
			t.Errorf("%s: not refused", name)
		}
	}
}

// The same review's honest code near those objects: what reads them
// passes; five remain refused (knownFalseRefusals), where the check,
// reading names, cannot tell them from a write.
var honestNearSharedObjects = map[string]string{
	"time.Date in UTC": `package aufgabe5

import "time"

func epoch(ms int64) time.Time {
	return time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
}
`,
	"start of a day in the time's own zone": `package aufgabe5

import "time"

func startOfDay(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}
`,
	"time shown in the local zone": `package aufgabe5

import "time"

func stamp(ms int64) string { return time.UnixMilli(ms).In(time.Local).Format(time.RFC3339) }
`,
	"CRC-32C of a snapshot": `package aufgabe5

import "hash/crc32"

func sum(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }
`,
	"a regexp passed to a helper": `package aufgabe5

import "regexp"

var seqSuffix = regexp.MustCompile(` + "`[0-9]{10}$`" + `)

func matchAll(re *regexp.Regexp, names []string) (out []string) {
	for _, n := range names {
		if re.MatchString(n) {
			out = append(out, n)
		}
	}
	return out
}

func sequentials(children []string) []string { return matchAll(seqSuffix, children) }
`,
	"a parameter named like a regexp variable": `package aufgabe5

import (
	"fmt"
	"regexp"
)

var seq = regexp.MustCompile(` + "`[0-9]{10}$`" + `)

func isSequential(name string) bool { return seq.MatchString(name) }

func childName(prefix string, seq int32) string { return fmt.Sprintf("%s%010d", prefix, seq) }
`,
	"Longest on a local regexp": `package aufgabe5

import "regexp"

func longestPrefix(pattern, s string) string {
	re := regexp.MustCompile(pattern)
	re.Longest()
	return re.FindString(s)
}
`,
	"an encoding passed as *base64.Encoding": `package aufgabe5

import "encoding/base64"

func encodeWith(enc *base64.Encoding, b []byte) string { return enc.EncodeToString(b) }

func digest(b []byte) string { return encodeWith(base64.StdEncoding, b) }
`,
	"a streaming base64 encoder": `package aufgabe5

import (
	"bytes"
	"encoding/base64"
)

func armor(b []byte) []byte {
	var out bytes.Buffer
	w := base64.NewEncoder(base64.StdEncoding, &out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}
`,
	"a method Location of the student's own type": `package aufgabe5

type watch struct{ path string }

func (w watch) Location() string { return w.path }

func describe(w watch) string { return "watch at " + w.Location() }
`,
}

var knownFalseRefusals = []string{
	"a regexp passed to a helper",                 // the helper could write through it
	"a parameter named like a regexp variable",    // names, not scopes
	"Longest on a local regexp",                   // the method, on anything
	"an encoding passed as *base64.Encoding",      // the function could write through it
	"a method Location of the student's own type", // the method, on anything
}

func TestReadingSharedObjectsPasses(t *testing.T) {
	for name, src := range honestNearSharedObjects {
		_, err := checkFiles(map[string][]byte{"ok.go": []byte(src)}, func(n string) string { return n }, true)
		known := false
		for _, k := range knownFalseRefusals {
			known = known || k == name
		}
		if err != nil && !known {
			t.Errorf("%s: refused: %v", name, err)
		}
		if err == nil && known {
			t.Errorf("%s: passes now; take it off knownFalseRefusals", name)
		}
	}
}
