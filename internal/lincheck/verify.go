package lincheck

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"zablab/internal/artifacts"
	"zablab/internal/histview"
)

// checkLimit bounds porcupine's search: a history it cannot decide in
// this time passes, with a note in the log.
const checkLimit = 10 * time.Second

// ErrNotLinearizable is a history that no order of its calls explains.
var ErrNotLinearizable = errors.New("not linearizable")

// ErrUndecided is a history porcupine could not decide in checkLimit: a
// Service's history of thousands of calls is decided in milliseconds
// unless many of them lost their answers, and such a history may hide
// any violation.
var ErrUndecided = errors.New("not decided")

// Page names a failing history's picture.
type Page struct {
	Title  string   // the page's heading, e.g. "seed 7: ..."
	Replay string   // the command that runs the same schedule again
	Notes  []string // more lines under the heading
}

// PictureFile is the name of the page Verify draws, in the test's
// artifacts folder (package internal/artifacts).
const PictureFile = "history.html"

// Verify runs porcupine on ops. An illegal history is drawn, with the
// faults beside it, into the test's artifacts folder (ZABLAB_ARTIFACTS,
// or a new folder kept under the system's temporary one), and the error
// names the page.
func Verify(t testing.TB, ops []porcupine.Operation, faults []histview.Fault, p Page) error {
	t.Helper()
	var unknown, moved int
	for _, op := range ops {
		switch op.Output.(Output).Result {
		case Unknown:
			unknown++
		case Moved:
			moved++
		}
	}
	begin := time.Now()
	res, info := porcupine.CheckOperationsVerbose(Model, ops, checkLimit)
	t.Logf("%d operations (%d with unknown outcome, %d refused with SessionMoved), porcupine: %s in %v",
		len(ops), unknown, moved, res, time.Since(begin).Round(time.Millisecond))
	switch res {
	case porcupine.Ok:
		return nil
	case porcupine.Unknown:
		return fmt.Errorf("the history of %d operations was %w in %v (%d of them with unknown outcome): no violation found, none ruled out",
			len(ops), ErrUndecided, checkLimit, unknown)
	}
	path := filepath.Join(artifacts.Keep(t), PictureFile)
	notes := append([]string{fmt.Sprintf("%d operations; replay: %s", len(ops), p.Replay)}, p.Notes...)
	var page bytes.Buffer
	err := histview.Render(&page, histview.Page{Title: p.Title, Notes: notes, Model: Model, Info: info, Faults: faults})
	if err == nil {
		err = artifacts.Write(path, page.Bytes())
	}
	if err != nil {
		return fmt.Errorf("the history of %d operations is %w (and its picture %s failed: %w)", len(ops), ErrNotLinearizable, path, err)
	}
	return fmt.Errorf("the history of %d operations is %w; open %s in a browser", len(ops), ErrNotLinearizable, path)
}
