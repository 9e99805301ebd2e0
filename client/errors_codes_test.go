package client

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"

	"zablab/mwzookeeper"
)

// TestEveryZooKeeperCodeKept: the doc promises that every error
// carries ZooKeeper's code (mwzookeeper.CodeOf). ZooKeeper 3.8 codes with
// no sentinel (NewConfigNoQuorum -13, ReconfigInProgress -14,
// EphemeralOnLocalSession -120, ReconfigDisabled -123,
// SessionClosedRequireSaslAuth -124) come out as SystemError (-1), so
// errors.Is(err, mwzookeeper.ErrSystemError) holds and the code is lost.
func TestEveryZooKeeperCodeKept(t *testing.T) {
	cases := map[mwzookeeper.Code]error{
		-13:  fmt.Errorf("unknown error: %v", zk.ErrCode(-13)),
		-14:  fmt.Errorf("unknown error: %v", zk.ErrCode(-14)),
		-120: fmt.Errorf("unknown error: %v", zk.ErrCode(-120)),
		-123: zk.ErrReconfigDisabled, // go-zk's value for code -123
		-124: fmt.Errorf("unknown error: %v", zk.ErrCode(-124)),
	}
	var bad []string
	for code, goErr := range cases {
		err := wrap("create", "/a", goErr)
		if got := mwzookeeper.CodeOf(err); got != code {
			bad = append(bad, fmt.Sprintf("code %d -> CodeOf %d (%v)", code, got, err))
		}
	}
	if len(bad) > 0 {
		t.Fatalf("ZooKeeper codes lost:\n%s", strings.Join(bad, "\n"))
	}
}
