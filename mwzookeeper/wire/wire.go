package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Sentinel errors. Every error this package returns wraps one of them (or
// io.EOF / io.ErrUnexpectedEOF from ReadFrame) and says which record and
// field it is about.
var (
	// ErrMalformed: a truncated field, a bad length, a negative count, or
	// bytes left over after a record that ZooKeeper ends there.
	ErrMalformed = errors.New("wire: malformed frame")
	// ErrTooLarge: a frame longer than the reader allows.
	ErrTooLarge = errors.New("wire: frame too large")
	// ErrUnknownOp: a request whose opcode this package does not decode.
	// DecodeRequest still returns the header, so the server can answer
	// ErrUnimplemented to that xid and keep the connection.
	ErrUnknownOp = errors.New("wire: unknown opcode")
	// ErrOpNotInMulti: a multi holding an op other than create, delete,
	// setData or check, or a multiRead holding one other than getData or
	// getChildren. The frame is whole; ZooKeeper answers it
	// MarshallingError (its "Invalid type of op") and keeps the
	// connection, so DecodeRequest returns the header with it.
	ErrOpNotInMulti = errors.New("wire: op not allowed in this multi")
	// ErrEmptyACL: a create (alone or inside a multi) whose ACL list is
	// empty or null. ZooKeeper answers InvalidACL (-114) and keeps the
	// connection; DecodeRequest decodes the whole request and returns an
	// *EmptyACLError, which matches this sentinel.
	ErrEmptyACL = errors.New("wire: create with an empty ACL list")
	// ErrBadBody: a request whose header is whole but whose body does not
	// fit its opcode's record (cut short, or a length that lies). It
	// comes with ErrMalformed; DecodeRequest returns the header with it,
	// since ZooKeeper answers such a request MarshallingError and keeps
	// the connection.
	ErrBadBody = errors.New("wire: request body does not fit its record")
)

// EmptyACLError is what DecodeRequest returns for a create with an empty
// or null ACL list. The request is decoded in full; Op is the index of the
// first such create within a multi (0 for a plain create), so the server
// can answer the multi's results as ZooKeeper does.
type EmptyACLError struct {
	Op   int
	Path string
}

func (e *EmptyACLError) Error() string {
	return fmt.Sprintf("%v: path %q (op %d)", ErrEmptyACL, e.Path, e.Op)
}

// Is makes errors.Is(err, ErrEmptyACL) true.
func (e *EmptyACLError) Is(target error) bool { return target == ErrEmptyACL }

// MaxFrame is the largest request frame a server accepts: ZooKeeper's
// jute.maxbuffer default (0xfffff), which bounds the whole request,
// header, path and ACLs included. ZooKeeper closes a connection that
// announces a longer frame; so does the server.
const MaxFrame = 1<<20 - 1

// Special xids of ZooKeeper's protocol. Ordinary requests use xids >= 0
// chosen by the client; these mark frames that are not answers to them.
const (
	XidWatchEvent int32 = -1 // server to client: a watch event
	XidPing       int32 = -2 // a ping and its answer
	XidAuth       int32 = -4 // an auth packet from the Java and C clients
	XidSetWatches int32 = -8 // setWatches after a reconnect (Java and C clients)
)

// requestHeaderLen is the size of RequestHeader{xid, type}.
const requestHeaderLen = 8

// ReadFrame reads one length-prefixed frame from r and returns its body.
// The body is read into buf's array when it fits (pass the previous body
// back to reuse it), otherwise into a new one. A length below zero is
// ErrMalformed, above max ErrTooLarge. A connection closed cleanly before
// the first byte returns io.EOF; one closed inside a frame returns a
// wrapped io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader, buf []byte, max int) ([]byte, error) {
	// The length is read into buf too: a local array would escape to the
	// heap through r and cost an allocation per frame.
	if cap(buf) < 4 {
		buf = make([]byte, 4, 512)
	}
	if _, err := io.ReadFull(r, buf[:4]); err != nil {
		if errors.Is(err, io.EOF) {
			return buf[:0], io.EOF
		}
		return buf[:0], fmt.Errorf("wire: reading a frame length: %w", err)
	}
	n := int(int32(binary.BigEndian.Uint32(buf[:4])))
	switch {
	case n < 0:
		return buf[:0], fmt.Errorf("%w: frame length %d is negative", ErrMalformed, n)
	case n > max:
		return buf[:0], fmt.Errorf("%w: frame length %d exceeds the limit of %d bytes", ErrTooLarge, n, max)
	}
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return buf[:0], fmt.Errorf("wire: reading a frame of %d bytes: %w", n, err)
	}
	return buf, nil
}

// IsFourLetterWord says whether the first four bytes a client sent are a
// four-letter word (ruok, srvr, stat, mntr, conf, envi, cons, wchs, ...)
// rather than the length of a connect request. Any four lowercase ASCII
// letters count: read as a length they would exceed MaxFrame, so no real
// frame is mistaken for one, and the server decides which words it knows.
func IsFourLetterWord(first [4]byte) (string, bool) {
	for _, c := range first {
		if c < 'a' || c > 'z' {
			return "", false
		}
	}
	return string(first[:]), true
}

// beginFrame reserves the length prefix of a frame appended to dst and
// returns where it starts; endFrame fills it in.
func beginFrame(dst []byte) ([]byte, int) {
	return append(dst, 0, 0, 0, 0), len(dst)
}

func endFrame(dst []byte, start int) []byte {
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}
