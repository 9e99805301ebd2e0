package shell

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

// printStat prints a stat as zkCli does, field names and all.
func printStat(w io.Writer, st mwzookeeper.MWStat) {
	fmt.Fprintf(w, "cZxid = 0x%x\n", st.Czxid)
	fmt.Fprintf(w, "ctime = %s\n", javaDate(st.Ctime))
	fmt.Fprintf(w, "mZxid = 0x%x\n", st.Mzxid)
	fmt.Fprintf(w, "mtime = %s\n", javaDate(st.Mtime))
	fmt.Fprintf(w, "pZxid = 0x%x\n", st.Pzxid)
	fmt.Fprintf(w, "cversion = %d\n", st.Cversion)
	fmt.Fprintf(w, "dataVersion = %d\n", st.Version)
	fmt.Fprintf(w, "aclVersion = %d\n", st.Aversion)
	fmt.Fprintf(w, "ephemeralOwner = 0x%x\n", st.EphemeralOwner)
	fmt.Fprintf(w, "dataLength = %d\n", st.DataLength)
	fmt.Fprintf(w, "numChildren = %d\n", st.NumChildren)
}

// javaDate formats ms since the epoch as Java's Date.toString does, in
// the local time zone ("Mon Nov 23 10:36:42 UTC 2026").
func javaDate(ms int64) string {
	return time.UnixMilli(ms).Format("Mon Jan 02 15:04:05 MST 2006")
}

// printData prints a node's data as text; data never set prints "null".
func printData(w io.Writer, data []byte) {
	if data == nil {
		fmt.Fprintln(w, "null")
		return
	}
	fmt.Fprintln(w, string(data))
}

// printChildren prints names as Java prints a list: [a, b].
func printChildren(w io.Writer, names []string) {
	fmt.Fprintf(w, "[%s]\n", strings.Join(names, ", "))
}

// codeNames are KeeperException.Code's names, as zkCli prints them in
// "KeeperErrorCode = <name> for <path>".
var codeNames = map[mwzookeeper.Code]string{
	-1: "SystemError", -2: "RuntimeInconsistency", -3: "DataInconsistency",
	-4: "ConnectionLoss", -5: "MarshallingError", -6: "Unimplemented",
	-7: "OperationTimeout", -8: "BadArguments", -12: "UnknownSession",
	-100: "APIError", -101: "NoNode", -102: "NoAuth", -103: "BadVersion",
	-108: "NoChildrenForEphemerals", -110: "NodeExists", -111: "Directory not empty",
	-112: "Session expired", -113: "InvalidCallback", -114: "InvalidACL",
	-115: "AuthFailed", -118: "Session moved", -119: "Not a read-only call",
	-121: "No such watcher", -122: "Request timeout", -125: "Quota has exceeded",
	-127: "Throttled",
}

// message is what the shell prints for err from a command on path:
// zkCli's sentence for the codes users meet every day, and zkCli's
// generic "KeeperErrorCode = ... for path" for the rest.
func message(err error, path string) string {
	switch {
	case errors.Is(err, errNotConnected):
		return "Not connected"
	case errors.Is(err, client.ErrClosed):
		return "Not connected"
	case errors.Is(err, mwzookeeper.ErrNoNode):
		return "Node does not exist: " + path
	case errors.Is(err, mwzookeeper.ErrNodeExists):
		return "Node already exists: " + path
	case errors.Is(err, mwzookeeper.ErrBadVersion):
		return "version No is not valid : " + path
	case errors.Is(err, mwzookeeper.ErrNotEmpty):
		return "Node not empty: " + path
	case errors.Is(err, mwzookeeper.ErrNoAuth):
		return "Insufficient permission : " + path
	case errors.Is(err, mwzookeeper.ErrInvalidACL):
		return "Acl is not valid : " + path
	case errors.Is(err, mwzookeeper.ErrNoChildrenForEphemerals):
		return "Ephemerals cannot have children: " + path
	case errors.Is(err, errBadPath):
		if !strings.HasPrefix(path, "/") {
			return "Path must start with / character"
		}
		return fmt.Sprintf("Invalid path string %q: %v", path, errors.Unwrap(err))
	}
	var usage usageError
	if errors.As(err, &usage) {
		return string(usage)
	}
	code := mwzookeeper.CodeOf(err)
	if name, ok := codeNames[code]; ok && code != -1 {
		return fmt.Sprintf("KeeperErrorCode = %s for %s", name, path)
	}
	return err.Error()
}

// usageError is a command used wrongly; its text is the command's usage.
type usageError string

func (u usageError) Error() string { return string(u) }

var (
	errNotConnected = errors.New("shell: not connected")
	errBadPath      = errors.New("shell: bad path")
)
