// Command zab-bench measures a 3-peer Zab ensemble on loopback, over TCP,
// with fsync on. It starts three peer processes of itself and prints
//
//	zab-bench: peers=3 size=1024 proposers=<C> ops_per_s=<X> p50_ms=<Y> p99_ms=<Z>
//
// for each --proposers value (closed-loop proposers on the leader, 1 KiB
// messages), then, unless --failover=false,
//
//	zab-failover: kill_to_first_delivery_ms=<T>
//
// the time from kill -9 of the leader to the first delivery on a follower
// under the next leader, while that follower proposes every millisecond.
package main
