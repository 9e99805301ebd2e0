package sim

// liveness ends the faults: the network heals and stops losing messages,
// every peer runs. A new message must then be delivered on every peer within
// livenessBound ticks.
func (w *world) liveness() {
	w.net.heal()
	w.net.dropP, w.net.dupP = 0, 0
	w.tracef("FAULTS END")
	w.recordNet("FAULTS END: the network heals and loses nothing; every peer runs")
	for _, p := range w.peers {
		if p.core == nil {
			w.start(p)
		}
	}
	start := w.now
	var marks []uint64
	for tick := 0; tick <= livenessBound && w.fail == nil; tick++ {
		if tick%(2*syncLimit) == 0 {
			if id, ok := w.propose(w.peers[w.rng.IntN(len(w.peers))]); ok {
				marks = append(marks, id)
			}
		}
		end := w.now + tickLen
		for w.now < end && w.fail == nil {
			w.now++
			w.deliverDue()
			w.tickDue()
		}
		w.checkStep()
		if w.deliveredEverywhere(marks) {
			w.res.LivenessTicks = int((w.now - start) / tickLen)
			return
		}
	}
	w.violate("liveness", "no new message was delivered on every peer within %d ticks after faults ended", livenessBound)
}

// deliverDue delivers every message that is due, oldest first.
func (w *world) deliverDue() {
	for w.fail == nil {
		f, ok := w.net.takeOldest(w.now)
		if !ok {
			return
		}
		w.stepPeer(f)
	}
}

// deliveredEverywhere reports whether some marker reached every peer.
func (w *world) deliveredEverywhere(marks []uint64) bool {
	for _, id := range marks {
		all := true
		for _, p := range w.peers {
			if !p.has(id) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (p *peer) has(id uint64) bool {
	for i := len(p.app.list) - 1; i >= 0; i-- {
		if p.app.list[i].ID == id {
			return true
		}
	}
	return false
}
