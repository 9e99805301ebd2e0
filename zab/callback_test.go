package zab

import (
	"fmt"
	"testing"
	"time"

	"zablab/internal/wait"
	"zablab/properties"
)

// echo proposes a reply from inside Deliver, as a service does when one
// delivered request causes another (closing a session deletes its nodes).
type echo struct {
	recorder
	z Zab
}

func (e *echo) Deliver(id TxnCookie, m []byte) {
	e.recorder.Deliver(id, m)
	if string(m) == "ping" {
		if _, err := e.z.Propose([]byte("pong")); err != nil {
			panic(fmt.Sprintf("Propose from Deliver: %v", err))
		}
	}
}

func TestProposeFromInsideACallback(t *testing.T) {
	p, err := properties.LoadString(fmt.Sprintf("dataLogDir=%s\ntickTime=10\nlog.level=OFF\n", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	app := &echo{}
	z, err := NewSingleZab(app, p)
	if err != nil {
		t.Fatal(err)
	}
	app.z = z
	if err := z.Startup(); err != nil {
		t.Fatal(err)
	}
	defer z.Shutdown()
	wait.For(t, "leading", 5*time.Second, func() bool { _, s := app.snapshot(); return s == Leading })
	buf := []byte("ping")
	if _, err := z.Propose(buf); err != nil {
		t.Fatal(err)
	}
	copy(buf, "XXXX") // the caller may reuse its buffer at once
	wait.For(t, "the pong proposed from Deliver", 5*time.Second, func() bool {
		got, _ := app.snapshot()
		return len(got) == 2 && got[0] == "ping" && got[1] == "pong"
	})
}
