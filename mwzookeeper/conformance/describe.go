package conformance

import (
	"fmt"
	"strings"

	"zablab/mwzookeeper"
)

// opText names a request in a failure: "create /a", "multi (3 ops)".
func opText(req *mwzookeeper.Request) string {
	switch req.Op {
	case mwzookeeper.OpMulti:
		return fmt.Sprintf("multi (%d ops)", len(req.Ops))
	case mwzookeeper.OpCreateSession, mwzookeeper.OpCloseSession, mwzookeeper.OpPing:
		return req.Op.String()
	case mwzookeeper.OpSync:
		return "sync"
	}
	s := req.Op.String() + " " + req.Path
	switch req.Op {
	case mwzookeeper.OpCreate, mwzookeeper.OpCreate2:
		if req.Mode != mwzookeeper.Persistent {
			s += " (" + modeText(req.Mode) + ")"
		}
	case mwzookeeper.OpSetData, mwzookeeper.OpDelete:
		if req.Version != -1 {
			s += fmt.Sprintf(" (version %d)", req.Version)
		}
	}
	return s
}

func modeText(m mwzookeeper.CreateMode) string {
	switch m {
	case mwzookeeper.Persistent:
		return "persistent"
	case mwzookeeper.Ephemeral:
		return "ephemeral"
	case mwzookeeper.PersistentSequential:
		return "sequential"
	case mwzookeeper.EphemeralSequential:
		return "ephemeral sequential"
	}
	return fmt.Sprintf("mode %d", m)
}

// describe says what came back for req, in the words of its operation.
func describe(req *mwzookeeper.Request, r *mwzookeeper.Response) string {
	if r == nil {
		return "no reply"
	}
	if r.Err != nil {
		return fmt.Sprintf("error %q", r.Err.Error())
	}
	switch req.Op {
	case mwzookeeper.OpCreate, mwzookeeper.OpCreate2:
		return fmt.Sprintf("the created name %q", r.Path)
	case mwzookeeper.OpGetData:
		return fmt.Sprintf("data %q with stat %s", r.Data, statText(r.Stat))
	case mwzookeeper.OpExists, mwzookeeper.OpSetData:
		return "stat " + statText(r.Stat)
	case mwzookeeper.OpGetChildren:
		return fmt.Sprintf("children %q", r.Children)
	case mwzookeeper.OpGetChildren2: // its stat is checked too: show it
		return fmt.Sprintf("children %q with stat %s", r.Children, statText(r.Stat))
	case mwzookeeper.OpCreateSession:
		return fmt.Sprintf("session %#x", r.Session)
	case mwzookeeper.OpMulti:
		return "results " + resultsText(r.Results)
	}
	return "success"
}

// statText prints every field of an MWStat, zxids in hex as ZooKeeper's
// tools do.
func statText(s mwzookeeper.MWStat) string {
	return fmt.Sprintf("{czxid %#x mzxid %#x pzxid %#x ctime %d mtime %d version %d cversion %d aversion %d ephemeralOwner %#x dataLength %d numChildren %d}",
		s.Czxid, s.Mzxid, s.Pzxid, s.Ctime, s.Mtime, s.Version, s.Cversion, s.Aversion, s.EphemeralOwner, s.DataLength, s.NumChildren)
}

func resultsText(rs []mwzookeeper.OpResult) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		switch {
		case r.Err != nil:
			parts[i] = fmt.Sprintf("%s: %s", r.Op, codeText(r.Err))
		case r.Path != "":
			parts[i] = fmt.Sprintf("%s: %q", r.Op, r.Path)
		case r.Op == mwzookeeper.OpSetData:
			parts[i] = fmt.Sprintf("%s: version %d", r.Op, r.Stat.Version)
		default:
			parts[i] = fmt.Sprintf("%s: ok", r.Op)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// codeNames are ZooKeeper's names of the codes the suite expects.
var codeNames = map[mwzookeeper.Code]string{
	0:                                               "OK",
	mwzookeeper.CodeOf(wantNoNode):                  "NoNode",
	mwzookeeper.CodeOf(wantNodeExists):              "NodeExists",
	mwzookeeper.CodeOf(wantBadVersion):              "BadVersion",
	mwzookeeper.CodeOf(wantNotEmpty):                "NotEmpty",
	mwzookeeper.CodeOf(wantBadArguments):            "BadArguments",
	mwzookeeper.CodeOf(wantConnectionLoss):          "ConnectionLoss",
	mwzookeeper.CodeOf(wantNoChildrenForEphemerals): "NoChildrenForEphemerals",
	mwzookeeper.CodeOf(wantRuntimeInconsistency):    "RuntimeInconsistency",
	mwzookeeper.CodeOf(wantSessionExpired):          "SessionExpired",
	mwzookeeper.CodeOf(wantUnimplemented):           "Unimplemented",
}

// codeText names err by its ZooKeeper code: "NoNode (-101)".
func codeText(err error) string {
	code := mwzookeeper.CodeOf(err)
	if name, ok := codeNames[code]; ok {
		return fmt.Sprintf("%s (%d)", name, code)
	}
	return fmt.Sprintf("code %d", code)
}

// sameCode says whether got carries want's ZooKeeper code (nil: success).
func sameCode(got, want error) bool {
	return mwzookeeper.CodeOf(got) == mwzookeeper.CodeOf(want)
}
