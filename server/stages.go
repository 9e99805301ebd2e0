package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"zablab/mwzookeeper"
	"zablab/zab"
)

// Where a write's time goes, stage by stage, on the replica the client is
// connected to: the server stamps the request when its frame is read and
// when the Service gives its reply; the Zab runtime stamps the stages in
// between (zab.WriteStages), which the reply function finds on the peer's
// zab.StageBoard because the Service answers a write from inside Deliver;
// the server adds the time the reply was written. Each stage's histogram is
// the time from the previous stage; "total" is from read to written.
// Writes the Service answers elsewhere (refused, failed, a Service without
// Zab) are not measured.

// StageNames are the stages of mwzk_write_stage_seconds, in path order.
var StageNames = [...]string{
	"propose", // frame read → Propose called (decode, Submit, the Service's encode)
	"order",   // → the batch holding the entry sent and handed to the disk (follower: the leader's proposal back)
	"fsync",   // → this peer's fsync of that batch done
	"quorum",  // → the batch delivering it taken: a quorum acknowledged (follower: COMMIT received)
	"deliver", // → Deliver called (that batch's own fsync and sends come first)
	"apply",   // → the Service's reply (applied)
	"reply",   // → the reply written to the client's socket
	"total",   // frame read → reply written
}

var writeStageSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
	Name: "mwzk_write_stage_seconds",
	Help: "One client write's time per stage on the replica it came to (role: leader or follower), each from the previous stage; total from read to reply written.",
	// 10 µs to 20 s: an apply takes microseconds, a commit under load tens of milliseconds.
	Buckets: prometheus.ExponentialBuckets(0.00001, 2, 22),
}, []string{"role", "stage"})

// stageObs are the histograms' children, resolved once: the write path
// observes without a label lookup. Index: [leading][stage].
var stageObs = func() (o [2][len(StageNames)]prometheus.Observer) {
	for i, role := range []string{"follower", "leader"} {
		for k, st := range StageNames {
			o[i][k] = writeStageSeconds.WithLabelValues(role, st)
		}
	}
	return o
}()

// timedReply is a measured write whose reply is queued for the writer.
type timedReply struct {
	read, applied time.Time
	zab           zab.WriteStages
}

// stampApplied notes, as the Service replies, the Zab stages of s's write
// if this is the delivery the peer is making now.
func (s *slot) stampApplied(resp *mwzookeeper.Response) {
	s.timed = false
	if !s.hdr.Op.IsWrite() || s.c.srv.board == nil {
		return
	}
	// A write is proposed after its frame was read: a delivery proposed
	// earlier is another write's, whose zxid a refused write's or a
	// ConnectionLoss reply also carries (the last one applied).
	if w, ok := s.c.srv.board.Lookup(zab.Zxid(resp.Zxid)); ok && !w.Proposed.Before(s.start) {
		s.timed, s.zab, s.applied = true, w, time.Now()
	}
}

// observeStages records the writes whose replies were written at written.
func observeStages(rs []timedReply, written time.Time) {
	for i := range rs {
		r := &rs[i]
		role := 0
		if r.zab.Leading {
			role = 1
		}
		o := &stageObs[role]
		at := [...]time.Time{r.read, r.zab.Proposed, r.zab.Ordered, r.zab.Fsynced, r.zab.Committed,
			r.zab.Delivered, r.applied, written}
		for k := 1; k < len(at); k++ {
			o[k-1].Observe(max(at[k].Sub(at[k-1]), 0).Seconds())
		}
		o[len(StageNames)-1].Observe(written.Sub(r.read).Seconds())
	}
}
