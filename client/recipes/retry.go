package recipes

import (
	"context"
	"errors"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

// retriable: a lost connection (not a closed handle). The session lives
// on and the handle reconnects, so the request may be sent again; whether
// the lost one took effect is for the caller to settle.
func retriable(err error) bool {
	return errors.Is(err, mwzookeeper.ErrConnectionLoss) && !errors.Is(err, client.ErrClosed)
}

// pause waits a little before a retry; false when ctx ended.
func pause(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(200 * time.Millisecond):
		return true
	}
}

// untilAnswered runs op until it is not lost to a connection loss, or ctx
// ends (then the last error is returned). Only for idempotent ops: reads,
// and deletes whose ErrNoNode the caller takes as done.
func untilAnswered(ctx context.Context, op func() error) error {
	for {
		err := op()
		if !retriable(err) || !pause(ctx) {
			return err
		}
	}
}
