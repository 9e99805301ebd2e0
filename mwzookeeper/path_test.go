package mwzookeeper

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestValidatePathFollowsZooKeeper is a table of ZooKeeper's PathUtils
// rules: each path, plain and sequential, accepted or not.
func TestValidatePathFollowsZooKeeper(t *testing.T) {
	cases := []struct {
		path       string
		ok, seqOK  bool
		reasonPart string
	}{
		{"/", true, true, ""},
		{"/a", true, true, ""},
		{"/a/b-c_d.e", true, true, ""},
		{"/.a", true, true, ""},
		{"/a..b", true, true, ""},
		{"/...", true, true, ""},
		{"/zookeeper/quota", true, true, ""},
		{"/ä/日本", true, true, ""},
		{"", false, false, "empty"},
		{"a", false, false, "start with '/'"},
		{"a/b", false, false, "start with '/'"},
		{"/a/", false, true, "end with '/'"},
		{"//", false, false, `path "//"`}, // plain: ends with /; sequential: empty segment
		{"/a//b", false, false, "empty segment"},
		{"/.", false, true, "relative"}, // sequential: "/.0000000001" is a name
		{"/..", false, true, "relative"},
		{"/a/./b", false, false, "relative"},
		{"/a/../b", false, false, "relative"},
		{"/a/.", false, true, "relative"},
		{"/a\x00b", false, false, "U+0000"},
		{"/a\x01", false, false, "U+0001"},
		{"/a\x1f", false, false, "U+001F"},
		{"/a\x7f", false, false, "U+007F"},
		{"/a\u0085", false, false, "U+0085"},
		{"/a\u009f", false, false, "U+009F"},
		{"/a\ue000", false, false, "U+E000"},
		{"/a\uf8ff", false, false, "U+F8FF"},
		{"/a\ufff0", false, false, "U+FFF0"},
		{"/a\uffff", false, false, "U+FFFF"},
		{"/a\uf900", true, true, ""},
		{"/a\U0001F600", false, false, "U+1F600"}, // a surrogate pair in Java's UTF-16
		{"/a\U00010000", false, false, "U+10000"},
		{"/a\xff", false, false, "UTF-8"},
	}
	for _, c := range cases {
		for _, seq := range []bool{false, true} {
			want := c.ok
			if seq {
				want = c.seqOK
			}
			err := ValidatePath(c.path, seq)
			if (err == nil) != want {
				t.Errorf("ValidatePath(%q, sequential=%v) = %v, want ok=%v", c.path, seq, err, want)
				continue
			}
			if err == nil {
				continue
			}
			if !errors.Is(err, ErrBadArguments) || !strings.Contains(err.Error(), c.reasonPart) {
				t.Errorf("ValidatePath(%q): %v: want ErrBadArguments saying %q", c.path, err, c.reasonPart)
			}
		}
	}
}

func TestSequentialName(t *testing.T) {
	for _, c := range []struct {
		path string
		cv   int32
		want string
	}{
		{"/q/n-", 0, "/q/n-0000000000"},
		{"/q/", 42, "/q/0000000042"},
		{"/q/n", 2147483647, "/q/n2147483647"},
		{"/q/n", -2147483648, "/q/n-2147483648"},
	} {
		if got := SequentialName(c.path, c.cv); got != c.want {
			t.Errorf("SequentialName(%q, %d) = %q, want %q", c.path, c.cv, got, c.want)
		}
	}
}

// formerPathProblem is the check as first written (split into segments,
// the counter appended for a sequential path): the model the allocation-free
// pathProblem must agree with.
func formerPathProblem(path string, sequential bool) string {
	if path == "" {
		return "is empty"
	}
	if path[0] != '/' {
		return "must start with '/'"
	}
	if sequential {
		path += "1"
	}
	if len(path) == 1 {
		return ""
	}
	if path[len(path)-1] == '/' {
		return "must not end with '/'"
	}
	if !utf8.ValidString(path) {
		return "is not valid UTF-8"
	}
	for _, seg := range strings.Split(path[1:], "/") {
		switch seg {
		case "":
			return "has an empty segment (\"//\")"
		case ".", "..":
			return "has a relative segment \"" + seg + "\""
		}
	}
	for i, r := range path {
		if badRune(r) {
			return fmt.Sprintf("has an invalid character %U at byte %d", r, i)
		}
	}
	return ""
}

// TestPathProblemAgreesWithTheModel: every string of up to six characters
// from an alphabet that makes all the cases, plain and sequential.
func TestPathProblemAgreesWithTheModel(t *testing.T) {
	alphabet := []string{"/", ".", "a", "\x00", "é"}
	paths := []string{""}
	for n := 0; n < 6; n++ {
		for _, p := range paths {
			if len([]rune(p)) == n {
				for _, c := range alphabet {
					paths = append(paths, p+c)
				}
			}
		}
	}
	paths = append(paths, "/\xff", "/a/\xff/", "/a/\ufff0")
	for _, p := range paths {
		for _, seq := range []bool{false, true} {
			if got, want := pathProblem(p, seq), formerPathProblem(p, seq); got != want {
				t.Fatalf("pathProblem(%q, %v) = %q, the model says %q", p, seq, got, want)
			}
		}
	}
}

// TestValidPathAllocatesNothing: every request's path is checked.
func TestValidPathAllocatesNothing(t *testing.T) {
	for _, seq := range []bool{false, true} {
		if n := testing.AllocsPerRun(100, func() { _ = ValidatePath("/app/locks/lock-", seq) }); n != 0 {
			t.Fatalf("ValidatePath(sequential %v): %v allocations", seq, n)
		}
	}
}
