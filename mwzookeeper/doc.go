// Package mwzookeeper is the vocabulary of MWZooKeeper, the course's
// ZooKeeper-like service: what the server, the client, the student's stubs
// and the reference solution all speak.
//
// # The model
//
// The service keeps a tree of znodes, addressed by absolute paths such as
// /app/config (ValidatePath says which paths are good). Every znode has
// data (at most MaxData bytes), children, and an MWStat: the zxids and
// leader times of its creation and last change, its version (bumped by
// every SetData), its cversion (bumped by every child created or deleted)
// and, for an ephemeral node, the session that owns it. A version of -1 in
// a request means "whatever the version".
//
// Nodes are persistent or ephemeral (gone when their session ends), and
// either may be sequential: the service appends the parent's cversion as
// ten digits, so /queue/item- becomes /queue/item-0000000007. Ephemeral
// nodes cannot have children.
//
// # Requests and the Service
//
// A client's request reaches a Service as a Request with an OpCode
// (ZooKeeper's numbers) and is answered once with a Response. Writes
// (create, delete, setData, multi, and the session requests) are proposed
// through Zab and decided when they are delivered, identically on every
// replica; reads are answered at once from the replica's own state; a
// session's requests keep their order. Errors are the sentinels of this
// package (ErrNoNode, ErrNodeExists, ErrBadVersion, ...), each carrying
// ZooKeeper's numeric code (CodeOf, ErrorOf); test them with errors.Is.
//
// The server (package server) gives a Service a Host: its clock, its
// logger, and the ways back to the connections: Notify for watch events,
// SessionClosed when a session ends, Serving while the replica cannot take
// requests.
//
// # Watches
//
// A read may leave a one-shot watch: getData and exists a data watch,
// getChildren a child watch. A WatchTable keeps them for the sessions of one
// server; the Service adds watches while it executes reads and fires them
// while it applies writes, so a client sees the event before any later
// reply. Watches live on the server a client is connected to; a
// reconnecting client re-registers them with setWatches.
package mwzookeeper
