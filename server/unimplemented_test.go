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

// todoService answers op as a student's stub does, with todo.
type todoService struct {
	*fake
	op   mw.OpCode
	todo string
}

func (s todoService) Submit(req *mw.Request, reply func(*mw.Response)) {
	if req.Op == s.op {
		reply(&mw.Response{Err: fmt.Errorf("%w: %s", mw.ErrUnimplemented, s.todo)})
		return
	}
	s.fake.Submit(req, reply)
}

// TestUnimplementedNamesTheTodoInTheLog: a client sees only the code
// Unimplemented; the server's log must keep the Service's words, which
// name the file and function to write.
func TestUnimplementedNamesTheTodoInTheLog(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	s := startServerLogged(t, todoService{newFake(), mw.OpSetData, "TODO(A5.1) in apply.go: Service.setData: setData"}, testProps, logger)
	c := zkClient(t, 5*time.Second, s.Addr().String())
	// go-zookeeper has no name for code -6: it says "unknown error: -6".
	if _, err := c.Set("/", []byte("x"), -1); err == nil || !strings.Contains(err.Error(), "-6") {
		t.Fatalf("setData: %v, want Unimplemented (-6)", err)
	}
	var found bool
	for _, e := range hook.AllEntries() {
		if e.Level == logrus.WarnLevel && strings.Contains(fmt.Sprint(e.Data[logrus.ErrorKey]), "TODO(A5.1) in apply.go: Service.setData") {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning with the Service's TODO text among %d log entries", len(hook.AllEntries()))
	}
}

// TestUnimplementedSessionIsAWarning (a student's trial): a Service that
// does not create sessions yet refused every client with a line at level
// info, once a second, easy to miss among the other info lines; it is a
// warning naming the TODO.
func TestUnimplementedSessionIsAWarning(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	s := startServerLogged(t, todoService{newFake(), mw.OpCreateSession, "TODO(A5.1) in service.go: Service.Submit: createSession"}, testProps, logger)
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
