package main

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"zablab/zab"
)

// app is the demo's application: the delivered lines, in order.
type app struct {
	mu    sync.Mutex // guards lines and out: input and callbacks run concurrently
	lines []string
	out   *bufio.Writer
}

func newApp(w io.Writer) *app { return &app{out: bufio.NewWriter(w)} }

func (a *app) printf(format string, args ...any) {
	fmt.Fprintf(a.out, format, args...)
	a.out.Flush()
}

func (a *app) Deliver(id zab.TxnCookie, m []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lines = append(a.lines, string(m))
	a.printf("DELIVER %s %s %d %s\n", id.Zxid, id.Time().UTC().Format(time.RFC3339Nano), id.Proposer, m)
}

func (a *app) DeliverSync(id zab.TxnCookie) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.printf("SYNC %s\n", id.Zxid)
}

func (a *app) Status(s zab.Status, leader string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.printf("STATUS %s %s\n", s, leader)
}

// GetState writes one line per delivered line; lines cannot hold newlines.
func (a *app) GetState(w io.Writer) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	bw := bufio.NewWriter(w)
	for _, l := range a.lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func (a *app) SetState(r io.Reader, last zab.TxnCookie) error {
	var lines []string
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64<<10), zab.MaxMessage)
	for in.Scan() {
		lines = append(lines, in.Text())
	}
	if err := in.Err(); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lines = lines
	a.printf("RESTORE %s %d\n", last.Zxid, len(lines))
	return nil
}

func (a *app) printState() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.printf("STATE %d %s\n", len(a.lines), stateHash(a.lines))
}

// stateHash is the sha256 of the lines, each followed by a newline.
func stateHash(lines []string) string {
	return fmt.Sprintf("%x", sha256.Sum256([]byte(strings.Join(lines, "\n")+"\n")))
}
