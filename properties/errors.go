package properties

import (
	"errors"
	"strconv"
	"strings"
)

// The sentinel errors. Every error this package returns for bad input is an
// *Error whose Unwrap gives one of them, so callers branch with errors.Is
// and still print a message that points at the file, line and key.
var (
	// ErrSyntax marks input that java.util.Properties rejects as well
	// (a malformed \uxxxx escape) and input that is not UTF-8.
	ErrSyntax = errors.New("properties: syntax error")
	// ErrMissing marks a required key that is absent (see Require).
	ErrMissing = errors.New("properties: missing key")
	// ErrValue marks a value that a typed getter cannot parse, or that
	// another package refused through Errorf.
	ErrValue = errors.New("properties: bad value")
)

// Error is a problem with one definition in a properties file. Fields that
// are unknown are zero: File is "" for input read from an io.Reader, Line is
// 0 for keys set in code or absent, Key is "" when the problem comes before
// the key was read.
type Error struct {
	File string // file name as given to LoadFile
	Line int    // 1-based line where the definition starts
	Key  string // key of the definition
	Msg  string // what is wrong, for a human
	Err  error  // one of the sentinels, for errors.Is
}

// Error formats the error as "file:line: key \"k\": msg", leaving out the
// parts that are unknown, so that editors and terminals can jump to the
// location the way they do for compiler messages.
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.File != "" && e.Line > 0:
		b.WriteString(e.File + ":" + strconv.Itoa(e.Line) + ": ")
	case e.File != "":
		b.WriteString(e.File + ": ")
	case e.Line > 0:
		b.WriteString("line " + strconv.Itoa(e.Line) + ": ")
	}
	if e.Key != "" {
		b.WriteString("key " + strconv.Quote(e.Key) + ": ")
	}
	msg := e.Msg
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	b.WriteString(msg)
	return b.String()
}

// Unwrap returns the sentinel, so errors.Is(err, ErrValue) and friends work.
func (e *Error) Unwrap() error { return e.Err }
