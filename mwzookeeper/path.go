package mwzookeeper

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ValidatePath checks path as ZooKeeper's PathUtils does: absolute, no
// empty segment, no trailing '/', no "." or ".." segment, no control or
// reserved characters. For a sequential create the server appends a
// counter, so a trailing '/' is allowed there (create -s /queue/ makes
// /queue/0000000001). The error wraps ErrBadArguments and names the path.
func ValidatePath(path string, sequential bool) error {
	if reason := pathProblem(path, sequential); reason != "" {
		return fmt.Errorf("%w: path %q: %s", ErrBadArguments, path, reason)
	}
	return nil
}

func pathProblem(path string, sequential bool) string {
	if path == "" {
		return "is empty"
	}
	if path[0] != '/' {
		return "must start with '/'"
	}
	if len(path) == 1 {
		return ""
	}
	// A sequential create appends a counter, as ZooKeeper does before it
	// checks: a trailing '/' then ends in a name.
	if !sequential && path[len(path)-1] == '/' {
		return "must not end with '/'"
	}
	if !utf8.ValidString(path) {
		return "is not valid UTF-8"
	}
	if reason := segmentProblem(path[1:], sequential); reason != "" {
		return reason
	}
	for i, r := range path {
		if badRune(r) {
			return fmt.Sprintf("has an invalid character %U at byte %d", r, i)
		}
	}
	return ""
}

// segmentProblem checks the segments of a path without its leading '/'.
// It allocates nothing: every request's path passes here. The last
// segment of a sequential path gets the counter appended, so it is never
// empty or relative.
func segmentProblem(rest string, sequential bool) string {
	for {
		seg, after, more := strings.Cut(rest, "/")
		if more || !sequential {
			switch seg {
			case "":
				return "has an empty segment (\"//\")"
			case ".", "..":
				return "has a relative segment \"" + seg + "\""
			}
		}
		if !more {
			return ""
		}
		rest = after
	}
}

// badRune lists the characters ZooKeeper refuses in a path. Java checks
// UTF-16 units, so a character beyond U+FFFF, a surrogate pair there
// (U+D800..U+DFFF, within the refused U+D800..U+F8FF), is refused too.
func badRune(r rune) bool {
	return r == 0 ||
		(r > 0 && r <= 0x1f) ||
		(r >= 0x7f && r <= 0x9f) ||
		(r >= 0xd800 && r <= 0xf8ff) ||
		r >= 0xfff0
}

// Parent returns the parent of a valid path ("/" for a top-level node and
// for "/" itself).
func Parent(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// Base returns the last segment of a valid path ("" for "/").
func Base(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// Join appends name to the valid path parent.
func Join(parent, name string) string {
	if parent == "/" {
		return "/" + name
	}
	return parent + "/" + name
}

// SequentialName is the name a sequential create gives path: the parent's
// cversion at apply time, as ten digits, appended (ZooKeeper's %010d; a
// negative counter after overflow prints as ZooKeeper prints it).
func SequentialName(path string, parentCversion int32) string {
	return fmt.Sprintf("%s%010d", path, parentCversion)
}
