package server

import (
	"fmt"
	"strconv"
	"strings"
	_ "unsafe" // go:linkname

	"github.com/go-zookeeper/zk"
)

// The requests difffuzz_test.go sends through go-zk's own request queue
// (its unexported (*Conn).request, the jute records field for field,
// ZooKeeper's opcodes), and how its transcript writes errors, data and
// ACLs.

//go:linkname fzRequest github.com/go-zookeeper/zk.(*Conn).request
func fzRequest(c *zk.Conn, opcode int32, req, res any, recvFunc func(fzOpaque, fzOpaque, error)) (int64, error)

// fzOpaque stands for go-zk's *request and *responseHeader; always nil.
type fzOpaque *struct{}

// Jute records, field for field (go-zk's codec walks struct fields).
type (
	fzPathWatch struct {
		Path  string
		Watch bool
	}
	fzPath     struct{ Path string }
	fzStat     struct{ Stat zk.Stat }
	fzDataResp struct {
		Data []byte
		Stat zk.Stat
	}
	fzKidsResp struct {
		Children []string
		Stat     zk.Stat
	}
	fzCreate struct {
		Path  string
		Data  []byte
		ACL   []zk.ACL
		Flags int32
	}
	fzCreateTTL struct {
		Path  string
		Data  []byte
		ACL   []zk.ACL
		Flags int32
		TTL   int64
	}
	fzCreate2Resp struct {
		Path string
		Stat zk.Stat
	}
	fzDelete struct {
		Path    string
		Version int32
	}
	fzSetData struct {
		Path    string
		Data    []byte
		Version int32
	}
	fzACLResp struct {
		ACL  []zk.ACL
		Stat zk.Stat
	}
	fzSetACL struct {
		Path    string
		ACL     []zk.ACL
		Version int32
	}
	fzPathMode struct {
		Path string
		Mode int32
	}
	fzEmpty   struct{}
	fzCount   struct{ Count int32 }
	fzStrings struct{ Paths []string }
)

// ZooKeeper's opcodes used here.
const (
	fzOpCreate               = 1
	fzOpDelete               = 2
	fzOpExists               = 3
	fzOpGetData              = 4
	fzOpSetData              = 5
	fzOpGetACL               = 6
	fzOpSetACL               = 7
	fzOpSync                 = 9
	fzOpGetChildren2         = 12
	fzOpCreate2              = 15
	fzOpCheckWatches         = 17
	fzOpRemoveWatches        = 18
	fzOpCreateContainer      = 19
	fzOpCreateTTL            = 21
	fzOpGetEphemerals        = 103
	fzOpGetAllChildrenNumber = 104
	fzOpAddWatch             = 106
)

func fzErr(err error) string {
	if err == nil {
		return "ok"
	}
	return "ERR " + err.Error()
}

func fzData(b []byte) string {
	if b == nil {
		return "null"
	}
	if len(b) > 16 {
		return fmt.Sprintf("%d bytes", len(b))
	}
	return strconv.Quote(string(b))
}

func fzACLText(acl []zk.ACL) string {
	var b strings.Builder
	for _, a := range acl {
		fmt.Fprintf(&b, "[%d %s:%s]", a.Perms, a.Scheme, a.ID)
	}
	return b.String()
}
