package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedStateIsRefused: package variables and the allowed packages'
// process-wide state are refused, each named with file and line; blank
// variables and error sentinels pass, and so do the reference and the
// stubs. Red-team hand-ins shared one SingleZab Service between all
// replicas through a package variable (94 points without replication)
// and copied a sibling's tree at a restart (StateTransfer without state
// transfer).
func TestSharedStateIsRefused(t *testing.T) {
	bad := `package aufgabe5

import (
	"errors"
	"fmt"
	"hash/crc32"
	l "log"
	"sync"
	"unicode"

	"github.com/sirupsen/logrus"

	"zablab/logging"
	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/zab"
)

var registry = map[string]*Service{}

var pool sync.Pool

var errWrap = fmt.Errorf("wrapped: %w", &holder{})

var a, b = 1, 2

var errOK = errors.New("ok")

var errAlsoOK = fmt.Errorf("more: %w", errOK)

var _ = 3

type holder struct{ s *Service }

func (h *holder) Error() string { return "h" }

func use() {
	errOK = nil
	p := &errAlsoOK
	_ = p
	l.SetOutput(nil)
	_, _ = zab.PeerDeliveredAt("x")
	_ = mwzookeeper.OpenACL
	_ = crc32.IEEETable
	_ = logrus.StandardLogger()
	e := errOK
	_ = e
	_, _ = properties.LoadFile("/tmp/other-replica")
	_ = unicode.Categories
	_ = unicode.IsUpper('A')
	_, _, _ = logging.New(nil)
}
`
	fake := "package aufgabe5\n\nimport errors \"zablab/properties\"\n\nvar errFake = errors.New(\"x\")\n"
	_, err := checkFiles(map[string][]byte{"evil.go": []byte(bad), "fake.go": []byte(fake)}, func(n string) string { return n }, true)
	if err == nil {
		t.Fatal("shared state was not refused")
	}
	text := strings.ReplaceAll(err.Error(), "; ", "\n")
	want := []string{
		"evil.go:19: package variable registry", "evil.go:21: package variable pool",
		"evil.go:23: package variable errWrap",
		"evil.go:38: assigning to errOK", "evil.go:39: taking the address of errAlsoOK",
		"evil.go:41: l.SetOutput is state of the whole process", "evil.go:42: zab.PeerDeliveredAt is state",
		"evil.go:44: crc32.IEEETable is an object",
		"evil.go:45: logrus.StandardLogger is state", "evil.go:48: properties.LoadFile opens files",
		"evil.go:49: unicode.Categories is state", "evil.go:51: logging.New opens files", "fake.go:5: package variable errFake",
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("problems lack %q:\n%s", w, text)
		}
	}
	if n := strings.Count(text, "\n") + 1; n != len(want) {
		t.Errorf("%d problems, want %d:\n%s", n, len(want), text)
	}

	root := testRoot(t, true)
	for _, dir := range []string{"solutions/aufgabe5", "assignments/aufgabe5"} {
		files := map[string][]byte{}
		for name, src := range folderFiles(t, root, dir) {
			if !strings.HasSuffix(name, "_test.go") {
				files[name] = []byte(src)
			}
		}
		if _, err := checkFiles(files, func(n string) string { return n }, true); err != nil {
			t.Errorf("%s is refused: %v", dir, err)
		}
	}
	cheat := readFile(t, filepath.Join("testdata", "sharedcheat.go.txt"))
	_, err = checkFiles(map[string][]byte{"proxy.go": []byte(cheat)}, func(n string) string { return n }, true)
	if err == nil || !strings.Contains(err.Error(), "package variable engine") {
		t.Errorf("the shared-Service hand-in: %v, want its package variables refused", err)
	}
}

// TestHandedOutPoolIsAllowed: the package variable bufPool of the handouts
// before 2026-11-29 passes as it was handed out, with its two provided
// uses; another value, or another use, is refused. The reference's code
// of then (in its git history) is the case.
func TestHandedOutPoolIsAllowed(t *testing.T) {
	const then = `package aufgabe5

import "sync"

// bufPool holds encoding buffers, so a write allocates none of its own.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

func propose() {
	bp := bufPool.Get().(*[]byte)
	*bp = append((*bp)[:0], 1)
	bufPool.Put(bp)
}
`
	at := func(n string) string { return n }
	if _, err := checkFiles(map[string][]byte{"service.go": []byte(then)}, at, true); err != nil {
		t.Fatalf("the handed-out pool: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"return &b }}", "return &b }, New2: nil}", "package variable bufPool"},
		{"bp := bufPool.Get().(*[]byte)", "bp := bufPool.Get().(*[]byte); x := bufPool.Get(); _ = x", "service.go:9: bufPool is used"},
		{"bp := bufPool.Get().(*[]byte)", "p := &bufPool; bp := p.Get().(*[]byte)", "service.go:9: bufPool is used"},
	} {
		src := strings.Replace(then, c.from, c.to, 1)
		_, err := checkFiles(map[string][]byte{"service.go": []byte(src)}, at, true)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: %v, want %q", c.from, c.to, err, c.want)
		}
	}
}
