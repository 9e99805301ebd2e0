package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// ErrTrace is wrapped by every error of this package about a trace file;
// the message names the file and, for a bad line, its number.
var ErrTrace = errors.New("trace")

// Writer appends events to a trace file, one JSON line each. A peer that
// restarts appends to the same file, so the file holds every incarnation
// in the order they ran. The file never grows past its limit: the event
// that would cross it is replaced by one KindFull event and nothing is
// written after that. A Writer is not safe for concurrent use: the peer's
// goroutine owns it.
type Writer struct {
	f     *os.File
	path  string
	buf   []byte
	size  int64 // bytes in the file, written or buffered
	limit int64
	full  bool
	err   error // the first write error; writing stops after it
}

// fullReserve keeps room for the KindFull line under the limit.
const fullReserve = 256

// Create opens path for appending (creating it and its folder) with a
// size limit in bytes; a limit below 4 KiB is raised to 4 KiB.
func Create(path string, limit int64) (*Writer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrTrace, path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrTrace, path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrTrace, path, err)
	}
	w := &Writer{f: f, path: path, size: st.Size(), limit: max(limit, 4096)}
	tail, err := w.tail()
	if err != nil {
		f.Close()
		return nil, err
	}
	// An earlier run filled it: nothing more goes in. Its KindFull line
	// may be shorter than the event it replaced, so the size alone can
	// stay under the mark.
	w.full = w.size+fullReserve > w.limit || endsFull(tail)
	if !w.full && len(tail) > 0 && tail[len(tail)-1] != '\n' {
		// An earlier incarnation's last line was cut short (a SIGKILL can
		// stop a write between pages): end it, so that this incarnation's
		// first event starts a line of its own; Read skips the cut line.
		if _, err := w.f.Write([]byte{'\n'}); err != nil {
			f.Close()
			return nil, fmt.Errorf("%w: %s: %w", ErrTrace, w.path, err)
		}
		w.size++
	}
	return w, nil
}

// tail returns the file's last bytes, up to 4 KiB (more than a KindFull
// line).
func (w *Writer) tail() ([]byte, error) {
	if w.size == 0 {
		return nil, nil
	}
	r, err := os.Open(w.path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrTrace, w.path, err)
	}
	defer r.Close()
	b := make([]byte, min(w.size, 4096))
	if _, err := r.ReadAt(b, w.size-int64(len(b))); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrTrace, w.path, err)
	}
	return b, nil
}

// endsFull says whether tail's last whole line is a KindFull event.
func endsFull(tail []byte) bool {
	line, ok := bytes.CutSuffix(tail, []byte("\n"))
	if !ok {
		return false // cut short: not the line Add wrote
	}
	if i := bytes.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	var e Event
	return json.Unmarshal(line, &e) == nil && e.Kind == KindFull
}

// Add buffers e; Flush writes it. After the limit, events are dropped.
func (w *Writer) Add(e *Event) {
	if w.full || w.err != nil {
		return
	}
	n := len(w.buf)
	w.buf = AppendJSON(w.buf, e)
	if w.size+int64(len(w.buf)-n)+fullReserve <= w.limit {
		w.size += int64(len(w.buf) - n)
		return
	}
	w.buf = w.buf[:n]
	full := Event{Peer: e.Peer, Inc: e.Inc, N: e.N, Time: e.Time, Kind: KindFull,
		Text: fmt.Sprintf("trace file reached its limit of %d bytes; nothing after this was recorded", w.limit)}
	w.buf = AppendJSON(w.buf, &full)
	w.size += int64(len(w.buf) - n)
	w.full = true
}

// Full reports whether the limit was reached.
func (w *Writer) Full() bool { return w.full }

// Flush writes what Add buffered, in one write. It is not synced: a
// trace is for reading after the fact, and a process killed with -9 loses
// nothing the kernel already has.
func (w *Writer) Flush() error {
	if len(w.buf) == 0 || w.err != nil {
		return w.err
	}
	if _, err := w.f.Write(w.buf); err != nil {
		w.err = fmt.Errorf("%w: %s: %w", ErrTrace, w.path, err)
	}
	w.buf = w.buf[:0]
	return w.err
}

// Close flushes and closes the file.
func (w *Writer) Close() error {
	err := w.Flush()
	return errors.Join(err, w.f.Close())
}

// Read reads a trace written by Writer. Lines cut short because their
// process was killed while writing them are skipped: the last line, or
// bad lines right before an incarnation's first event (a restarted peer
// ends the cut line and flushes its start event alone, so a kill during
// that flush cuts a line of its own). Any other bad line is an error
// naming name and the line.
func Read(r io.Reader, name string) ([]Event, error) {
	var out []Event
	var cut error // the first bad line of a run, forgiven if a new incarnation follows
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			return out, nil // a torn tail has no newline
		}
		if err != nil {
			return out, fmt.Errorf("%w: %s: %w", ErrTrace, name, err)
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(b, &e); err != nil {
			if cut == nil {
				cut = fmt.Errorf("%w: %s:%d: %w", ErrTrace, name, line, err)
			}
			continue
		}
		if cut != nil && !startsIncarnation(out, e) {
			return out, cut
		}
		cut = nil
		out = append(out, e)
	}
}

// startsIncarnation: e is the first event of an incarnation other than
// the one of the last event read.
func startsIncarnation(read []Event, e Event) bool {
	return e.N == 1 && (len(read) == 0 || read[len(read)-1].Inc != e.Inc)
}

// ReadFile reads the trace file at path.
func ReadFile(path string) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTrace, err)
	}
	defer f.Close()
	return Read(f, path)
}

// Now is the clock of a real peer's events.
func Now() int64 { return time.Now().UnixNano() }
