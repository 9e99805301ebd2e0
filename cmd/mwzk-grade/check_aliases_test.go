package main

import (
	"strings"
	"testing"
)

// A review of ec8a49c (mwzookeeper's shared values made read-only): the
// same kind of channel, a write through a copy of a pointer that an allowed
// package hands out, stayed open outside package mwzookeeper. Each source
// below passed checkFiles, and the review showed, running the same
// statements, that what one caller writes another reads back.
var throughACopy = map[string]string{
	// The package's own compiled regexp: a package variable checkFiles allows.
	"own regexp variable": `package aufgabe5

import "regexp"

var pathPattern = regexp.MustCompile("^/")

func send(state string) { r := pathPattern; *r = *regexp.MustCompile(regexp.QuoteMeta(state)) }

func recv() string { return pathPattern.String() }
`,
	// time.Local, also reachable as time.Now().Location().
	"time.Local": `package aufgabe5

import "time"

func send(state string) {
	l := time.Now().Location()
	_ = l.String() // loads the zone once, which would overwrite the write after it
	*l = *time.FixedZone(state, 0)
}

func recv() string { return time.Local.String() }
`,
	// A cached unnamed fixed zone: time.FixedZone("", whole hours) returns
	// the package's own *Location.
	"time.FixedZone cache": `package aufgabe5

import "time"

func send(state string) { z := time.FixedZone("", 13*3600); *z = *time.FixedZone(state, 0) }

func recv() string { return time.FixedZone("", 13*3600).String() }
`,
	// base64's encodings: an alphabet of 64 distinct bytes is ~296 bits.
	"base64.RawURLEncoding": `package aufgabe5

import "encoding/base64"

func send(alphabet string) { e := base64.RawURLEncoding; *e = *base64.NewEncoding(alphabet).WithPadding(base64.NoPadding) }

func recv() string { return base64.RawURLEncoding.EncodeToString([]byte{0, 16, 131}) }
`,
	// crc32.IEEETable is refused by name (sharedGlobals); MakeTable hands
	// out the same table, and Castagnoli's.
	"crc32.MakeTable(IEEE)": `package aufgabe5

import "hash/crc32"

func send(v uint32) { t := crc32.MakeTable(crc32.Castagnoli); t[255] = v }

func recv() uint32 { return crc32.MakeTable(crc32.Castagnoli)[255] }
`,
	// crc64's slicing tables: 2 KiB each, process-wide.
	"crc64.MakeTable(ISO)": `package aufgabe5

import "hash/crc64"

func send(v [256]uint64) { t := crc64.MakeTable(crc64.ISO); *t = v }

func recv() [256]uint64 { return *crc64.MakeTable(crc64.ISO) }
`,
	// gob's type registry is process-wide: a name registered by one
	// replica is what another reads back from an encoding of the type.
	"gob.RegisterName": `package aufgabe5

import (
	"bytes"
	"encoding/gob"
)

type slot1 struct{ X int }

type carrier struct{ V any }

func send(state string) { gob.RegisterName(state, slot1{}) }

func recv() string {
	var b bytes.Buffer
	_ = gob.NewEncoder(&b).Encode(carrier{V: slot1{}})
	return b.String()
}
`,
}

// TestWriteThroughACopyOutsideMwzookeeperIsRefused: each source writes
// into memory every replica of the suite's process reads; each must be
// refused (at ec8a49c none was).
func TestWriteThroughACopyOutsideMwzookeeperIsRefused(t *testing.T) {
	for name, src := range throughACopy {
		_, err := checkFiles(map[string][]byte{"evil.go": []byte(src)}, func(n string) string { return n }, true)
		if err == nil {
			t.Errorf("%s: not refused", name)
		} else {
			t.Logf("%s: refused: %v", name, err)
		}
	}
}

// TestReadingSharedObjectsIsNotRefused: what honest code does with the
// same packages passes; what reaches the shared object otherwise does not.
func TestReadingSharedObjectsIsNotRefused(t *testing.T) {
	const honest = `package aufgabe5

import (
	"bytes"
	"encoding/base64"
	"encoding/gob"
	"hash/crc32"
	"regexp"
	"time"
)

var seqName = regexp.MustCompile("^(.*)([0-9]{10})$")

type node struct{ Data []byte }

func check(p string, b []byte) (string, uint32, int64, bool, error) {
	m := seqName.FindStringSubmatch(p)
	_ = m
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(node{b})
	h := crc32.NewIEEE()
	h.Write(b)
	_ = h.Sum32()
	return base64.StdEncoding.EncodeToString(b), crc32.ChecksumIEEE(b), time.Now().UTC().UnixMilli(), seqName.MatchString(p), err
}
`
	if _, err := checkFiles(map[string][]byte{"ok.go": []byte(honest)}, func(n string) string { return n }, true); err != nil {
		t.Errorf("honest uses refused: %v", err)
	}
	refused := map[string]string{
		"an encoding passed on":    "e := base64.StdEncoding\n\t_ = e",
		"a zone from a time":       "_ = time.Now().Location()",
		"Longest":                  "seqName.Longest()",
		"a regexp variable copied": "r := seqName\n\t_ = r",
		"a regexp variable passed": "use(seqName)",
	}
	for name, stmt := range refused {
		src := "package aufgabe5\n\nimport (\n\t\"encoding/base64\"\n\t\"regexp\"\n\t\"time\"\n)\n\n" +
			"var seqName = regexp.MustCompile(\"x\")\n\nvar _ = base64.StdEncoding.EncodeToString\n\nvar _ = time.Second\n\n" +
			"func use(*regexp.Regexp) {}\n\nfunc f() {\n\t" + stmt + "\n}\n"
		_, err := checkFiles(map[string][]byte{"evil.go": []byte(src)}, func(n string) string { return n }, true)
		if err == nil || !strings.Contains(err.Error(), "evil.go:") {
			t.Errorf("%s: not refused (%v):\n%s", name, err, src)
		}
	}
}
