package core

// The bug seam. The simulator proves it can fail by switching on known
// protocol bugs (Config.Bugs); the protocol files never test a switch
// themselves but ask the questions below, whose answers with the zero Bugs
// are the correct protocol. Every deliberate deviation lives in this file.

// Bugs are deliberate protocol errors for the simulator's self-test.
type Bugs struct {
	CommitWithoutQuorum bool // leader commits with one ACK fewer than a quorum
	ElectionIgnoresZxid bool // votes compare only peer ids
	SkipSynchronization bool // a new leader commits its history before a quorum has it
	AcceptOldEpoch      bool // epoch fencing off: followers take and count any NEWEPOCH, even below
	// their acceptedEpoch, and PROPOSE of older epochs; leaders no longer
	// compare a follower's epoch with their own (which would mask it)
}

// better reports whether vote w beats v: the most up-to-date peer wins
// (ElectionIgnoresZxid: ids alone decide).
func (c *Core) better(w, v Vote) bool {
	if c.cfg.Bugs.ElectionIgnoresZxid {
		return w.Leader > v.Leader
	}
	return v.Less(w)
}

// commitQuorum is how many durable copies a leader needs to commit
// (CommitWithoutQuorum: one fewer).
func (c *Core) commitQuorum() int {
	if c.cfg.Bugs.CommitWithoutQuorum && c.quorum > 1 {
		return c.quorum - 1
	}
	return c.quorum
}

// fencesOldEpochs reports whether epochs fence: a follower refuses NEWEPOCH
// at or below its promise and PROPOSE of older epochs, and a leader yields
// to a more up-to-date follower (AcceptOldEpoch: none of it).
func (c *Core) fencesOldEpochs() bool { return !c.cfg.Bugs.AcceptOldEpoch }

// takesStrayPropose reports whether a follower takes m, a message from a
// peer that is not its leader (AcceptOldEpoch: any PROPOSE, whoever sent it).
func (c *Core) takesStrayPropose(m Message) bool {
	return m.Type == MsgPropose && !c.fencesOldEpochs()
}

// skipsSynchronization reports whether a new leader commits its history
// before a quorum holds it (SkipSynchronization).
func (c *Core) skipsSynchronization() bool { return c.cfg.Bugs.SkipSynchronization }
