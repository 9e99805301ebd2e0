package main

import (
	"bufio"
	"fmt"
	"io"
	"sync"
)

// console serializes whole lines from the peers and from mwzk-run itself
// onto one writer, so lines of different peers never interleave mid-line.
type console struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
}

// colors cycle over the peers: red, green, yellow, blue, magenta, cyan.
var colors = []string{"31", "32", "33", "34", "35", "36"}

// prefix returns the "[peerN] " put before each line of the i-th peer.
func (c *console) prefix(i int, name string) string {
	if !c.color {
		return "[" + name + "] "
	}
	return "\x1b[" + colors[i%len(colors)] + "m[" + name + "]\x1b[0m "
}

// line writes one line (without its newline) after prefix.
func (c *console) line(prefix string, text []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	buf := make([]byte, 0, len(prefix)+len(text)+1)
	buf = append(append(append(buf, prefix...), text...), '\n')
	c.w.Write(buf) //nolint:errcheck // nowhere better to report a broken console
}

// say writes one line of mwzk-run's own.
func (c *console) say(format string, args ...any) {
	c.line("mwzk-run: ", []byte(fmt.Sprintf(format, args...)))
}

// copyLines copies r line by line onto the console, each line after
// prefix, until r ends; a last line without a newline gets one. Lines of
// any length are copied whole.
func (c *console) copyLines(prefix string, r io.Reader) {
	br := bufio.NewReader(r)
	for {
		text, err := br.ReadBytes('\n')
		if len(text) > 0 {
			if text[len(text)-1] == '\n' {
				text = text[:len(text)-1]
			}
			c.line(prefix, text)
		}
		if err != nil {
			return
		}
	}
}
