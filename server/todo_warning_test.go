package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
)

// todoFake answers a session's creation as a Service still at its TODO.
type todoFake struct{ *fake }

func (f todoFake) Submit(req *mw.Request, reply func(*mw.Response)) {
	if req.Op == mw.OpCreateSession {
		reply(&mw.Response{Err: fmt.Errorf("%w: TODO(A5.1) in service.go: Service.Submit: createSession", mw.ErrUnimplemented)})
		return
	}
	f.fake.Submit(req, reply)
}

// TestUnimplementedSessionIsAWarning (a student's trial): a Service that
// does not create sessions yet refused every client with a line at level
// info, once a second, easy to miss among the other info lines; it is a
// warning naming the TODO.
func TestUnimplementedSessionIsAWarning(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	s := startServerLogged(t, todoFake{newFake()}, testProps, logger)
	if body := connectAhead(t, s, 0, false); body != nil {
		t.Fatalf("a Service that creates no session gave a connect answer %x", body)
	}
	wait.For(t, "the refusal's log line", 10*time.Second, func() bool {
		for _, e := range hook.AllEntries() {
			if strings.Contains(fmt.Sprint(e.Message, e.Data), "TODO(A5.1)") {
				return true
			}
		}
		return false
	})
	for _, e := range hook.AllEntries() {
		if strings.Contains(fmt.Sprint(e.Message, e.Data), "TODO(A5.1)") && e.Level != logrus.WarnLevel {
			t.Errorf("the refusal naming the TODO is logged at %v, want warning: %s %v", e.Level, e.Message, e.Data)
		}
	}
}
