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
// Every blocking call takes a context; cancelling it withdraws the
// contender's node.
package recipes
