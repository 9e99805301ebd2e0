// Command zab-demo is a Zab peer whose application state is the list of
// delivered lines. It proposes every line read from standard input and
// prints what the library tells it:
//
//	DELIVER <zxid-hex> <timestamp RFC3339Nano> <proposer-id> <message>
//	STATUS <LOOKING|FOLLOWING|LEADING> <leader>
//	SYNC <zxid-hex>
//	RESTORE <zxid-hex> <lines>            (SetState: a snapshot was installed)
//	STATE <lines> <sha256 of the lines>   (answer to the input line "!state")
//
// The input line "!sync" calls Sync instead of proposing. It runs until
// SIGINT or SIGTERM.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"zablab/properties"
	"zablab/zab"
)

func main() {
	config := pflag.String("config", "", "the peer's properties file (myid, peer<i>, dataLogDir, ...)")
	single := pflag.Bool("single", false, "run alone (SingleZab) instead of as one peer of an ensemble")
	pflag.Parse()
	if *config == "" {
		fmt.Fprintln(os.Stderr, "zab-demo: --config <peer.properties> is required")
		os.Exit(2)
	}
	if err := run(*config, *single); err != nil {
		fmt.Fprintln(os.Stderr, "zab-demo:", err)
		os.Exit(1)
	}
}

func run(config string, single bool) error {
	p, err := properties.LoadFile(config)
	if err != nil {
		return err
	}
	app := newApp(os.Stdout)
	var z zab.Zab
	if single {
		z, err = zab.NewSingleZab(app, p)
	} else {
		z, err = zab.NewMultiZab(app, p)
	}
	if err != nil {
		return err
	}
	if err := z.Startup(); err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go readInput(z, app)
	<-sig
	return z.Shutdown()
}

// readInput proposes each line; it never stops the peer, even at EOF.
func readInput(z zab.Zab, app *app) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), zab.MaxMessage)
	for in.Scan() {
		line := in.Text()
		if line == "!state" {
			app.printState()
			continue
		}
		if err := submit(z, line); err != nil {
			fmt.Fprintf(os.Stderr, "zab-demo: %q not proposed: %v\n", line, err)
		}
	}
}

// submit proposes line (or syncs, for "!sync"), waiting up to leaderWait
// for a leader: lines typed while the ensemble elects one are not lost.
func submit(z zab.Zab, line string) error {
	const leaderWait = 30 * time.Second
	deadline := time.Now().Add(leaderWait)
	retry := time.NewTicker(20 * time.Millisecond)
	defer retry.Stop()
	for {
		var err error
		if line == "!sync" {
			_, err = z.Sync()
		} else {
			_, err = z.Propose([]byte(line))
		}
		if !errors.Is(err, zab.ErrNoLeader) || time.Now().After(deadline) {
			return err
		}
		<-retry.C
	}
}
