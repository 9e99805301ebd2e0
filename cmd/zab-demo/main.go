package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"zablab/properties"
	"zablab/zab"
)

func main() {
	config := pflag.String("config", "", "the peer's properties file (myid, peer<i>, dataLogDir, ...)")
	single := pflag.Bool("single", false, "run alone (SingleZab) instead of as one peer of an ensemble")
	level := pflag.String("log-level", "", "the library's log level (default: the log.level key, else WARN)")
	data := pflag.String("data", "", "keep the log and snapshots in DIR/log and DIR/snap instead of the file's dataLogDir and dataSnapDir")
	pflag.Parse()
	if *config == "" {
		fmt.Fprintln(os.Stderr, "zab-demo: --config <peer.properties> is required")
		os.Exit(2)
	}
	if err := run(*config, *single, *level, *data); err != nil {
		fmt.Fprintln(os.Stderr, "zab-demo:", inFile(*config, err))
		os.Exit(1)
	}
}

// inFile makes every error start with the file it is about: errors about a
// key already say "file:line: key", the others get the file in front.
func inFile(config string, err error) error {
	if strings.HasPrefix(err.Error(), config) {
		return err
	}
	return fmt.Errorf("%s: %w", config, err)
}

func run(config string, single bool, level, data string) error {
	p, err := properties.LoadFile(config)
	if err != nil {
		return err
	}
	if data != "" {
		// The demo's messages are not the service's: sharing the peer files
		// of testdata/ with mwzk-server must not mean sharing their logs.
		abs, err := filepath.Abs(data)
		if err != nil {
			return fmt.Errorf("--data %s: %w", data, err)
		}
		p.Set("dataLogDir", filepath.Join(abs, "log"))
		p.Set("dataSnapDir", filepath.Join(abs, "snap"))
	}
	if level != "" {
		p.Set("log.level", level)
	} else if _, ok := p.Get("log.level"); !ok {
		p.Set("log.level", "WARN")
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
	told := false
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
		if !told {
			fmt.Fprintf(os.Stderr, "zab-demo: no leader yet: %q waits (up to %s)\n", line, leaderWait)
			told = true
		}
		<-retry.C
	}
}
