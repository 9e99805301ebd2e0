package zab_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"zablab/properties"
	"zablab/zab"
)

// lines is an application whose state is the list of delivered lines.
type lines struct {
	all   []string
	ready chan struct{}
	got   chan string
}

func (a *lines) Deliver(id zab.TxnCookie, m []byte) {
	a.all = append(a.all, string(m))
	a.got <- fmt.Sprintf("delivered %q from peer %d", m, id.Proposer)
}

func (a *lines) DeliverSync(zab.TxnCookie) {}

func (a *lines) Status(s zab.Status, _ string) {
	if s == zab.Leading {
		close(a.ready)
	}
}

func (a *lines) GetState(w io.Writer) error {
	_, err := io.WriteString(w, strings.Join(a.all, "\n"))
	return err
}

func (a *lines) SetState(r io.Reader, _ zab.TxnCookie) error {
	b, err := io.ReadAll(r)
	a.all = nil
	if len(b) > 0 {
		a.all = strings.Split(string(b), "\n")
	}
	return err
}

// A lone peer: Deliver, Status and the state callbacks of an application
// that keeps the delivered lines.
func Example() {
	dir, _ := os.MkdirTemp("", "zab-example")
	defer os.RemoveAll(dir)
	p, _ := properties.LoadString("dataLogDir=" + dir + "\ntickTime=10\nlog.level=OFF\n")
	app := &lines{ready: make(chan struct{}), got: make(chan string, 2)}
	z, err := zab.NewSingleZab(app, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := z.Startup(); err != nil {
		fmt.Println(err)
		return
	}
	defer z.Shutdown()
	<-app.ready
	for _, m := range []string{"hello", "world"} {
		if _, err := z.Propose([]byte(m)); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(<-app.got)
	fmt.Println(<-app.got)
	// Output:
	// delivered "hello" from peer 1
	// delivered "world" from peer 1
}
