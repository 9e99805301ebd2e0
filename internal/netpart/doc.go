// Package netpart lets tests partition the network between the peers of an
// ensemble of real processes: one Linux network namespace per peer, all
// joined by veth pairs to a bridge in a hub namespace. It is test-only and
// needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN) and iproute2 (ip, tc).
//
// Why namespaces: a process on 127.0.0.1 cannot be cut off from another
// process on 127.0.0.1 without a firewall on the host, and a firewall rule
// on the host is shared with everything else the machine runs. Inside
// private namespaces each peer has an address of its own (10.77.0.<i>/24),
// the partition is a filter on the bridge port leading to the peer, and
// nothing at all is configured in the host's namespace: no address, no
// link, no rule; no packet of the test leaves the namespaces. The names
// carry the test binary's pid, so runs side by side do not meet, and
// t.Cleanup deletes every namespace, also when the test fails.
//
// Faults cut traffic between peers only. The hub's own address
// (10.77.0.254), from which the test's clients dial, is never filtered: a
// peer cut off from the others keeps its clients, as a minority partition
// of a real network would.
//
// How a cut drops packets: each bridge port's egress (towards its peer)
// has an htb qdisc whose default class passes everything; a u32 filter
// that matches a source address classifies the packet into a second class
// whose pfifo holds zero packets, so the packet is dropped. That is what
// "u32 ... action drop" does, without the act_gact module, which not every
// kernel has (the machine these tests were written on has no tc actions
// but mirred). Cut(a, b) drops a's packets at b's port only: b still
// reaches a, a one-way cut.
//
// How the test reaches the peers: Dial runs on a goroutine locked to its
// OS thread, which enters the hub namespace (setns), dials, and goes back
// to the host's namespace before it unlocks. A socket stays in the
// namespace it was made in, so the connection works from every goroutine
// later; no other goroutine of the test ever runs in a foreign namespace.
// (Ending the locked thread instead would be simpler but kills peers: the
// thread may be the one that forked a peer, whose parent-death signal
// fires when that thread ends; see In.) The alternatives were worse: a
// proxy process in the hub would add a hop with its own failures, and an
// address in the host's namespace is what this package avoids. go-zookeeper takes it through
// zk.WithDialer. The peers' processes are started with
// "ip netns exec <name> <program>", which execs the program itself, so the
// pid the test holds is the server's and it is ended by that pid.
package netpart
