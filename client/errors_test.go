package client

import (
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"zablab/internal/ports"
	"zablab/mwzookeeper"
)

// TestErrorCodes checks that every go-zk error becomes the sentinel with
// ZooKeeper's code, including the codes go-zk only knows as numbers.
func TestErrorCodes(t *testing.T) {
	cases := []struct {
		in   error
		code mwzookeeper.Code
	}{
		{zk.ErrNoNode, -101}, {zk.ErrNodeExists, -110}, {zk.ErrBadVersion, -103},
		{zk.ErrNotEmpty, -111}, {zk.ErrNoChildrenForEphemerals, -108},
		{zk.ErrSessionExpired, -112}, {zk.ErrConnectionClosed, -4}, {zk.ErrNoServer, -4},
		{zk.ErrClosing, -4}, {zk.ErrAPIError, -100}, {zk.ErrNoAuth, -102},
		{zk.ErrInvalidACL, -114}, {zk.ErrAuthFailed, -115}, {zk.ErrSessionMoved, -118},
		{zk.ErrBadArguments, -8}, {zk.ErrInvalidPath, -8}, {zk.ErrUnknown, -1},
		{fmt.Errorf("unknown error: %v", zk.ErrCode(-6)), -6},
		{fmt.Errorf("unknown error: %v", zk.ErrCode(-2)), -2},
		{fmt.Errorf("unknown error: %v", zk.ErrCode(-122)), -122},
		{&net.OpError{Op: "write", Err: errors.New("broken pipe")}, -4},
		{errors.New("something else"), -1},
	}
	for _, c := range cases {
		err := wrap("getData", "/a/b", c.in)
		if got := mwzookeeper.CodeOf(err); got != c.code {
			t.Errorf("%v: code %d, want %d (%v)", c.in, got, c.code, err)
		}
		if want := mwzookeeper.ErrorOf(c.code); !errors.Is(err, want) {
			t.Errorf("%v: errors.Is(%v, %v) does not hold", c.in, err, want)
		}
		if !containsAll(err.Error(), "getData", "/a/b") {
			t.Errorf("%v: %q names neither the call nor the path", c.in, err)
		}
	}
	if wrap("x", "/", nil) != nil {
		t.Error("wrap(nil) is not nil")
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		found := false
		for i := 0; i+len(p) <= len(s); i++ {
			if s[i:i+len(p)] == p {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func TestConnectTimeout(t *testing.T) {
	p, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	addr := fmt.Sprintf("127.0.0.1:%d", p[0])
	_, err = Connect([]string{addr}, time.Second, WithConnectTimeout(300*time.Millisecond))
	if !errors.Is(err, mwzookeeper.ErrConnectionLoss) || !containsAll(err.Error(), addr) {
		t.Fatalf("connect to nothing: %v, want a connection loss naming %s", err, addr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("connect gave up after %s, asked for 300ms", d)
	}
	if _, err := Connect(nil, time.Second); !errors.Is(err, mwzookeeper.ErrBadArguments) {
		t.Fatalf("connect without servers: %v", err)
	}
}
