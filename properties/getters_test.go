package properties

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// typedInput has one good and one bad value per getter, on known lines.
const typedInput = `# line 1
tickTime = 2000\u0020\u0020
initLimit=-5
syncLimit=five
big=9223372036854775807
huge=9223372036854775808
yes = TRUE
no=false
maybe=ture
empty=
neg=-1
units=2s
longms=9223372036855
`

// checkValueErr asserts that err is an ErrValue naming key and line.
func checkValueErr(t *testing.T, err error, key string, line int) {
	t.Helper()
	if !errors.Is(err, ErrValue) {
		t.Fatalf("err = %v, want ErrValue", err)
	}
	var pe *Error
	if !errors.As(err, &pe) || pe.Key != key || pe.Line != line {
		t.Fatalf("err = %#v, want key %q line %d", err, key, line)
	}
	if want := "line " + strconv.Itoa(line) + `: key "` + key + `"`; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q does not start with %q", err, want)
	}
}

func TestInt(t *testing.T) {
	p := mustLoad(t, typedInput)
	for key, want := range map[string]int{"tickTime": 2000, "initLimit": -5, "absent": 42} {
		if got, err := p.Int(key, 42); err != nil || got != want {
			t.Errorf("Int(%q) = %d, %v; want %d", key, got, err, want)
		}
	}
	for key, line := range map[string]int{"syncLimit": 4, "empty": 10, "huge": 6} {
		_, err := p.Int(key, 0)
		checkValueErr(t, err, key, line)
	}
}

func TestInt64(t *testing.T) {
	p := mustLoad(t, typedInput)
	if got, err := p.Int64("big", 0); err != nil || got != 1<<63-1 {
		t.Errorf("Int64(big) = %d, %v", got, err)
	}
	if got, err := p.Int64("absent", 7); err != nil || got != 7 {
		t.Errorf("Int64(absent) = %d, %v", got, err)
	}
	_, err := p.Int64("huge", 0)
	checkValueErr(t, err, "huge", 6)
}

func TestBool(t *testing.T) {
	p := mustLoad(t, typedInput)
	for key, want := range map[string]bool{"yes": true, "no": false, "absent": true} {
		if got, err := p.Bool(key, true); err != nil || got != want {
			t.Errorf("Bool(%q) = %v, %v; want %v", key, got, err, want)
		}
	}
	_, err := p.Bool("maybe", false)
	checkValueErr(t, err, "maybe", 9)
	_, err = p.Bool("empty", false)
	checkValueErr(t, err, "empty", 10)
}

func TestMillis(t *testing.T) {
	p := mustLoad(t, typedInput)
	if got, err := p.Millis("tickTime", time.Second); err != nil || got != 2*time.Second {
		t.Errorf("Millis(tickTime) = %v, %v; want 2s (trailing escaped blanks trimmed)", got, err)
	}
	if got, err := p.Millis("absent", time.Second); err != nil || got != time.Second {
		t.Errorf("Millis(absent) = %v, %v; want 1s", got, err)
	}
	for key, line := range map[string]int{"neg": 11, "units": 12, "syncLimit": 4, "longms": 13} {
		_, err := p.Millis(key, 0)
		checkValueErr(t, err, key, line)
	}
	p.Set("zero", " 0 ")
	if got, err := p.Millis("zero", time.Hour); err != nil || got != 0 {
		t.Errorf("Millis(zero) = %v, %v; want 0", got, err)
	}
}

func TestIndexed(t *testing.T) {
	p := mustLoad(t, "myid=1\npeer1=a:1\npeer3 = c:3\npeer12=l:12\nPeer5=ignored\n")
	got, err := p.Indexed("peer")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[int]string{1: "a:1", 3: "c:3", 12: "l:12"}, got); diff != "" {
		t.Errorf("Indexed (-want +got):\n%s", diff)
	}
	if got, err := New().Indexed("peer"); err != nil || len(got) != 0 {
		t.Errorf("Indexed on empty = %v, %v", got, err)
	}
	for _, bad := range []string{"peerless", "peer0", "peer01", "peer+1", "peer-1", "peer", "peer1x", "peer99999999999999999999"} {
		q := mustLoad(t, "peer1=a\n"+bad+"=b\n")
		_, err := q.Indexed("peer")
		checkValueErr(t, err, bad, 2)
	}
}

func TestPathIsRelativeToTheFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "peer.properties")
	if err := os.WriteFile(file, []byte("rel = data/log \nabs=/var/x\nempty=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ key, def, want string }{
		{"rel", "", filepath.Join(dir, "data/log")},
		{"abs", "", "/var/x"},
		{"empty", "d", filepath.Join(dir, "d")},
		{"missing", "", ""},
	} {
		if got := p.Path(tc.key, tc.def); got != tc.want {
			t.Errorf("Path(%q, %q) = %q, want %q", tc.key, tc.def, got, tc.want)
		}
	}
	q, _ := LoadString("rel=data")
	if got := q.Path("rel", ""); got != "data" {
		t.Errorf("properties from a string: Path = %q, want the value unchanged", got)
	}
}

// TestTooLargeIsOutOfRangeNotNoNumber: 99999999999999999999 is an integer,
// and "want an integer, got ..." sent a user looking for a typo; it is out
// of range, and tickTime's "want a whole number of milliseconds >= 0" was
// as wrong.
func TestTooLargeIsOutOfRangeNotNoNumber(t *testing.T) {
	p := mustLoad(t, "snapCount=99999999999999999999\ntickTime=99999999999999999999\nbig=-99999999999999999999\n")
	for _, c := range []struct {
		key  string
		get  func(string) error
		want string
	}{
		{"snapCount", func(k string) error { _, err := p.Int(k, 0); return err }, "99999999999999999999 is out of range: at most 9223372036854775807"},
		{"snapCount", func(k string) error { _, err := p.Int64(k, 0); return err }, "99999999999999999999 is out of range: at most 9223372036854775807"},
		{"tickTime", func(k string) error { _, err := p.Millis(k, 0); return err }, "99999999999999999999 milliseconds is too long for a duration"},
		{"big", func(k string) error { _, err := p.Millis(k, 0); return err }, `want a whole number of milliseconds >= 0, got "-99999999999999999999"`},
	} {
		err := c.get(c.key)
		if !errors.Is(err, ErrValue) || !strings.HasSuffix(fmt.Sprint(err), c.want) {
			t.Errorf("%s: %v; want an ErrValue ending %q", c.key, err, c.want)
		}
	}
}

// TestTooSmallIsNotOutOfRangeAtMost: a number below the smallest int is out
// of range too, but "at most 9223372036854775807" for -99999999999999999999
// tells the user the bound it already keeps; the message must give the
// lower bound.
func TestTooSmallIsNotOutOfRangeAtMost(t *testing.T) {
	p := mustLoad(t, "snapSizeLimitInKb=-99999999999999999999\n")
	for name, get := range map[string]func() error{
		"Int":   func() error { _, err := p.Int("snapSizeLimitInKb", 0); return err },
		"Int64": func() error { _, err := p.Int64("snapSizeLimitInKb", 0); return err },
	} {
		err := get()
		want := "-99999999999999999999 is out of range: at least -9223372036854775808"
		if !errors.Is(err, ErrValue) || !strings.HasSuffix(fmt.Sprint(err), want) {
			t.Errorf("%s: %v; want an ErrValue ending %q", name, err, want)
		}
	}
}
