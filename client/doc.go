// Package client is MWZooKeeper's client: a handle on one session of the
// service, with the course's API (Create, Delete, SetData, GetData with its
// MWStat out parameter) and the rest of ZooKeeper's (Exists, GetChildren,
// Sync, watches, Multi, async calls). It is built on go-zookeeper/zk, a
// real ZooKeeper client, so it talks to our server and to Apache ZooKeeper
// alike; the package adds the course's names, its error values and
// ordered async calls.
//
// # A session
//
// Connect opens a session and waits until it is established:
//
//	zk, err := client.Connect([]string{"127.0.0.1:13181"}, 5*time.Second)
//	if err != nil { ... }
//	defer zk.Close()
//
// A session outlives its connection: when a server goes away the handle
// moves to another server of the list within the session timeout, keeping
// the session's ephemeral nodes and watches (calls in flight then fail with
// mwzookeeper.ErrConnectionLoss: they may or may not have happened). When
// the service expires the session, the handle is dead: every call returns
// mwzookeeper.ErrSessionExpired and the program connects anew. Close ends
// the session at once; its ephemeral nodes are gone when Close returns.
//
// # Nodes
//
// Paths are absolute ("/app/config") and checked before anything is sent
// (mwzookeeper.ValidatePath). A version of -1 means "any version":
//
//	zk.Create("/app", nil, false)                      // persistent
//	zk.Create("/app/me", []byte("host1"), true)        // ephemeral
//	var st mwzookeeper.MWStat
//	data, err := zk.GetData("/app/me", &st)            // st: version, zxids, times
//	st, err = zk.SetData("/app/me", []byte("h2"), st.Version) // only if unchanged
//	err = zk.Delete("/app/me", -1)
//
// CreateMode takes ZooKeeper's create modes; a sequential node gets the
// parent's counter appended as ten digits ("/q/item-0000000007").
//
// # Errors
//
// Every error wraps one of mwzookeeper's sentinels, which carry ZooKeeper's
// codes, and names the call and the path: "create /app: mwzookeeper: node
// already exists". Test them with errors.Is(err, mwzookeeper.ErrNodeExists)
// or get the code with mwzookeeper.CodeOf.
//
// # Watches
//
// GetDataW, ExistsW and GetChildrenW also leave a one-shot watch and
// return a channel that delivers one Event: the node's data changed, it
// was created or deleted, or its children changed. The event reaches the
// client before the reply to any later call of the session, so a client
// that reads after an event sees at least the change that fired it. A
// watch ends without firing (Event.Err set) only when the session ends.
//
// # Order and async calls
//
// One session's calls take effect in the order the session sends them.
// The async variants (CreateAsync, SetDataAsync, ...) return at once; the
// handle sends them in call order and runs their callbacks one at a time,
// in call order, on one goroutine of its own. A blocking call waits until
// the async calls made before it have been answered, so one goroutine's
// calls keep call order across both kinds (with no async call pending it
// does not wait). Blocking calls made from
// several goroutines are pipelined on the one connection, in no promised
// order between the goroutines.
package client
