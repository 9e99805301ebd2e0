package mwzookeeper

import (
	"errors"
	"fmt"
)

// Code is one of ZooKeeper's numeric error codes (KeeperException.Code), as
// it travels on the wire in a reply header.
type Code int32

// Error is an error of the service with its ZooKeeper code. The sentinels
// below are the only values; wrap them with %w to say more (the path, the
// session), and test with errors.Is.
type Error struct {
	code Code
	msg  string
	base error // for an unknown code: ErrSystemError (errors.Is holds); nil for sentinels
}

// Unwrap is nil for the sentinels; an Error for an unknown code unwraps to
// ErrSystemError.
func (e *Error) Unwrap() error { return e.base }

func (e *Error) Error() string { return e.msg }

// Code returns the error's ZooKeeper code.
func (e *Error) Code() Code { return e.code }

func newError(code Code, msg string) *Error {
	e := placeShared(Error{code: code, msg: "mwzookeeper: " + msg}) // read-only: readonly.go
	byCode[code] = e
	sentinelCode[e] = code
	return e
}

var byCode = map[Code]*Error{}

// sentinelCode is each sentinel's code by its identity: the variables
// below are exported, and code that copies one sentinel over another
// (*ErrNoNode = *ErrAPIError, as a graded hand-in once did) must not
// change what CodeOf says of either.
var sentinelCode = map[*Error]Code{}

// ZooKeeper's error codes. Names follow KeeperException.Code.
var (
	ErrSystemError                  = newError(-1, "system error")
	ErrRuntimeInconsistency         = newError(-2, "runtime inconsistency")
	ErrDataInconsistency            = newError(-3, "data inconsistency")
	ErrConnectionLoss               = newError(-4, "connection lost")
	ErrMarshallingError             = newError(-5, "marshalling error")
	ErrUnimplemented                = newError(-6, "unimplemented")
	ErrOperationTimeout             = newError(-7, "operation timeout")
	ErrBadArguments                 = newError(-8, "bad arguments")
	ErrUnknownSession               = newError(-12, "unknown session")
	ErrNewConfigNoQuorum            = newError(-13, "no quorum of the new config is connected")
	ErrReconfigInProgress           = newError(-14, "another reconfiguration is in progress")
	ErrAPIError                     = newError(-100, "API error")
	ErrNoNode                       = newError(-101, "node does not exist")
	ErrNoAuth                       = newError(-102, "not authenticated")
	ErrBadVersion                   = newError(-103, "version conflict")
	ErrNoChildrenForEphemerals      = newError(-108, "ephemeral nodes may not have children")
	ErrNodeExists                   = newError(-110, "node already exists")
	ErrNotEmpty                     = newError(-111, "node has children")
	ErrSessionExpired               = newError(-112, "session expired")
	ErrInvalidCallback              = newError(-113, "invalid callback")
	ErrInvalidACL                   = newError(-114, "invalid ACL")
	ErrAuthFailed                   = newError(-115, "authentication failed")
	ErrSessionMoved                 = newError(-118, "session moved to another server")
	ErrNotReadOnly                  = newError(-119, "not a read-only call")
	ErrEphemeralOnLocalSession      = newError(-120, "ephemeral node on a local session")
	ErrNoWatcher                    = newError(-121, "no such watcher")
	ErrRequestTimeout               = newError(-122, "request timeout")
	ErrReconfigDisabled             = newError(-123, "reconfig is disabled")
	ErrSessionClosedRequireSaslAuth = newError(-124, "session closed: SASL authentication required")
	ErrQuotaExceeded                = newError(-125, "quota exceeded")
	ErrThrottled                    = newError(-127, "request throttled")
)

// CodeOf returns the ZooKeeper code of err: 0 for nil, the code of a wrapped
// Error, and SystemError (-1) for anything else.
func CodeOf(err error) Code {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		if c, ok := sentinelCode[e]; ok {
			return c
		}
		return e.code
	}
	return -1 // SystemError
}

// ErrorOf returns the sentinel for code: nil for 0, and for a code this
// package does not know an *Error made on the fly that keeps the number
// (CodeOf returns it) and is a SystemError for errors.Is.
func ErrorOf(code Code) error {
	if code == 0 {
		return nil
	}
	if e, ok := byCode[code]; ok {
		return e
	}
	// Not a sentinel: an Error made now, so CodeOf still gives the number.
	return &Error{code: code, msg: fmt.Sprintf("mwzookeeper: unknown ZooKeeper error code %d", code), base: ErrSystemError}
}
