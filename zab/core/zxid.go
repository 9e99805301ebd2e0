package core

import "fmt"

// Zxid is a transaction's place in the total order: the epoch of the leader
// that proposed it in the high 32 bits, a counter within that epoch in the low
// 32 bits. Comparing two zxids as integers compares their places.
type Zxid uint64

// NewZxid builds the zxid of the counter-th proposal of epoch.
func NewZxid(epoch, counter uint32) Zxid {
	return Zxid(uint64(epoch)<<32 | uint64(counter))
}

// Epoch is the epoch of the leader that proposed the transaction.
func (z Zxid) Epoch() uint32 { return uint32(z >> 32) }

// Counter is the transaction's position within its epoch, starting at 1.
func (z Zxid) Counter() uint32 { return uint32(z) }

// String prints the zxid as ZooKeeper's logs do: 0x followed by hex digits.
func (z Zxid) String() string { return fmt.Sprintf("0x%x", uint64(z)) }
