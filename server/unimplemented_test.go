package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	mw "zablab/mwzookeeper"
)

// todoService answers setData as a student's stub does.
type todoService struct{ *fake }

func (s todoService) Submit(req *mw.Request, reply func(*mw.Response)) {
	if req.Op == mw.OpSetData {
		reply(&mw.Response{Err: fmt.Errorf("%w: TODO(A5.1) in apply.go: Service.setData: setData", mw.ErrUnimplemented)})
		return
	}
	s.fake.Submit(req, reply)
}

// TestUnimplementedNamesTheTodoInTheLog: a client sees only the code
// Unimplemented; the server's log must keep the Service's words, which
// name the file and function to write.
func TestUnimplementedNamesTheTodoInTheLog(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	s := startServerLogged(t, todoService{newFake()}, testProps, logger)
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
