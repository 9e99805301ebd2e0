// Package server is the runtime around an MWZooKeeper Service: it loads a
// peer's properties, listens for clients on clientPort, speaks ZooKeeper's
// client wire protocol (package mwzookeeper/wire), and hands every decoded
// request to a mwzookeeper.Service. Real ZooKeeper clients (go-zookeeper/zk,
// zkCli.sh, the C client, kazoo) work against it unchanged.
//
// # What the server owns, and what the Service owns
//
// The server owns sockets and bytes: connections, the connect handshake and
// its negotiated session timeout, heartbeats (a connection that sends nothing
// for its session timeout is closed), per-connection reply order, watch
// events, and the four-letter words (ruok, srvr, stat, mntr, conf, envi,
// cons, wchs). The Service owns the tree, the sessions, Zab and the answers.
// They meet at Submit (server to Service) and at the Host (Service to server):
//
//	srv, err := server.New(props, aufgabe5.New, server.Options{})
//	if err != nil {
//		return err // peer1.properties:7: key "clientPort": ...
//	}
//	if err := srv.Start(); err != nil {
//		return err
//	}
//	defer srv.Stop()
//
// # Order
//
// A connection has one reader and one writer goroutine. The reader decodes a
// frame and calls Submit at once; it never waits for the answer, so a
// client's requests are pipelined. Each request takes a slot in the
// connection's FIFO; a reply that arrives early waits in its slot until every
// earlier one has been written, so replies leave in request order whatever the
// order in which the Service answers. A watch event skips the FIFO and goes
// straight to the outgoing buffer: it precedes every reply not yet sent, which
// is what ZooKeeper promises (a client sees the event before the new data).
// The one exception is a read still in the FIFO that may have left the watch
// the event fires (same path, a data watch for a data event, a child watch
// for a child event): the event is held in the FIFO, since a watch cannot fire
// before it was set and clients drop events for watches they have not seen
// set. That read's reply decides where the event goes: a reply zxid below the
// event's means the read ran before the write, and the event follows it; any
// reply at or past the event's zxid shows the write, and the event goes just
// ahead of it. This holds whenever the Service calls reply, inside Submit or
// later.
//
// # Back pressure and failures
//
// A connection holds at most a bounded number of requests in flight (the
// reader stops reading until replies are written) and a bounded number of
// bytes waiting to be written: a client that does not read its replies for
// its session timeout is disconnected, and neither the Service nor other
// connections ever wait for it. Time the reader spends not reading does not
// count as the client's silence (its pings wait in the socket), and the write
// deadline applies to each 256 KiB written, so a live client that drains a
// large burst slowly keeps its connection. An auth packet for a scheme
// ZooKeeper has no provider for ("world" among them) is answered AuthFailed
// and the connection closes, as in ZooKeeper 3.8. A request whose header is
// whole but whose body does not fit its record is answered MarshallingError
// and the connection goes on, as in ZooKeeper 3.8; a malformed header, an
// oversized or half-sent frame closes that one connection with a logged
// reason. While the Service says it cannot serve (its Zab peer
// is LOOKING), every client connection with a session is closed; a
// handshake waits up to a second for a leader, and one the Service answers
// ConnectionLoss asks again while its client stays, so a client does not
// pay its reconnect back-off for a moment of LOOKING. Sessions survive, and
// clients reconnect by themselves.
//
// docs/threads.md lists the goroutines and what each owns.
package server
