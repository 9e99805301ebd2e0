package client

import (
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/go-zookeeper/zk"

	"zablab/mwzookeeper"
)

// ErrClosed is what a call on a closed handle returns. It is a connection
// loss (errors.Is(err, mwzookeeper.ErrConnectionLoss) holds), so code that
// retries on connection loss stops only because the handle is gone.
var ErrClosed = fmt.Errorf("client: handle closed: %w", mwzookeeper.ErrConnectionLoss)

// zkErrors maps go-zookeeper's error values to the sentinels with the same
// ZooKeeper code. go-zk turns a reply's code into one of these values, or,
// for codes it does not know, into "unknown error: <code>" (see codeOfUnknown).
var zkErrors = map[error]error{
	zk.ErrConnectionClosed:        mwzookeeper.ErrConnectionLoss,
	zk.ErrNoServer:                mwzookeeper.ErrConnectionLoss,
	zk.ErrClosing:                 mwzookeeper.ErrConnectionLoss,
	zk.ErrUnknown:                 mwzookeeper.ErrSystemError,
	zk.ErrAPIError:                mwzookeeper.ErrAPIError,
	zk.ErrNoNode:                  mwzookeeper.ErrNoNode,
	zk.ErrNoAuth:                  mwzookeeper.ErrNoAuth,
	zk.ErrBadVersion:              mwzookeeper.ErrBadVersion,
	zk.ErrNoChildrenForEphemerals: mwzookeeper.ErrNoChildrenForEphemerals,
	zk.ErrNodeExists:              mwzookeeper.ErrNodeExists,
	zk.ErrNotEmpty:                mwzookeeper.ErrNotEmpty,
	zk.ErrSessionExpired:          mwzookeeper.ErrSessionExpired,
	zk.ErrInvalidACL:              mwzookeeper.ErrInvalidACL,
	zk.ErrInvalidFlags:            mwzookeeper.ErrBadArguments,
	zk.ErrAuthFailed:              mwzookeeper.ErrAuthFailed,
	zk.ErrSessionMoved:            mwzookeeper.ErrSessionMoved,
	zk.ErrBadArguments:            mwzookeeper.ErrBadArguments,
	zk.ErrInvalidPath:             mwzookeeper.ErrBadArguments,
	zk.ErrNothing:                 mwzookeeper.ErrorOf(-117),
	zk.ErrReconfigDisabled:        mwzookeeper.ErrReconfigDisabled,
}

// sentinel returns the mwzookeeper error for a go-zk error, and whether
// the original text says more than the sentinel (a network error's cause).
func sentinel(err error) (s error, detail bool) {
	if err == nil {
		return nil, false
	}
	if _, ok := err.(*mwzookeeper.Error); ok {
		return err, false
	}
	if s, ok := zkErrors[err]; ok {
		return s, false
	}
	if code, ok := codeOfUnknown(err); ok {
		return mwzookeeper.ErrorOf(code), false
	}
	var ne net.Error
	if errors.As(err, &ne) || strings.Contains(err.Error(), "connection") {
		// A write or read on the socket failed: go-zk hands the raw
		// error to the request that was in flight.
		return mwzookeeper.ErrConnectionLoss, true
	}
	return mwzookeeper.ErrSystemError, true
}

// codeOfUnknown recovers the code of go-zk's "unknown error: <code>", which
// it returns for every reply code it has no value for (-1 ... -9, -113, ...).
func codeOfUnknown(err error) (mwzookeeper.Code, bool) {
	var code int32
	if _, scanErr := fmt.Sscanf(err.Error(), "unknown error: %d", &code); scanErr != nil {
		return 0, false
	}
	return mwzookeeper.Code(code), true
}

// wrap maps err and names the operation and path: "create /a: node already
// exists". errors.Is(err, mwzookeeper.ErrNodeExists) holds for the result.
func wrap(op, path string, err error) error {
	s, detail := sentinel(err)
	switch {
	case s == nil:
		return nil
	case detail:
		return fmt.Errorf("%s %s: %w (%v)", op, path, s, err)
	}
	return fmt.Errorf("%s %s: %w", op, path, s)
}

// wrap is the package's wrap, except that after Close every failure is
// ErrClosed and after an expiry ErrSessionExpired: go-zk reports both as
// a closed connection.
func (z *MWZooKeeper) wrap(op, path string, err error) error {
	if err == nil {
		return nil
	}
	if dead := z.check(op, path); dead != nil {
		return dead
	}
	return wrap(op, path, err)
}
