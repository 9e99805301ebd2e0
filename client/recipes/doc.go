// Package recipes builds ZooKeeper's classic coordination recipes on a
// client.MWZooKeeper: a lock, leader election, barriers and a queue. They
// are the recipes of ZooKeeper's documentation ("ZooKeeper Recipes and
// Solutions") and show what the service's primitives are for:
//
//   - ephemeral nodes vanish with their session, so a crashed holder
//     releases its lock and a crashed leader its leadership;
//   - sequential nodes give every contender a place in one total order;
//   - watches let a waiter sleep until the one node it cares about
//     changes, instead of polling.
//
// Lock and Election queue their contenders as ephemeral-sequential nodes
// under one directory; the lowest holds the lock (or leads). Every other
// contender watches only its predecessor, so a release wakes one waiter,
// not all of them (no herd effect). A session that expires loses what it
// held: a waiting call returns mwzookeeper.ErrSessionExpired, and a holder
// learns it from its handle (client.WithStateCallback, State) and must
// stop acting as holder at once.
//
// A contender's node name carries a token unique to its call (random, 8
// bytes in hex), as in Curator's protected create: after a connection
// loss during the create, the contender finds the node that create made,
// and only it, even when several contenders share one session; when it
// gives up, it deletes the token's node (best effort, in the background).
// Unlock and Resign after the session expired succeed: the node went with
// the session. Queue.Take is at-least-once under a lost delete reply (see
// Queue).
//
// Every blocking call takes a context; cancelling it withdraws the
// contender's node.
package recipes
