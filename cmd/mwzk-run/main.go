package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"
)

// flags are mwzk-run's command line.
type flags struct {
	dir, bin, impl, traceDir string
	stopOnFailure, color     bool
	stopTimeout              time.Duration
}

// parseFlags reads the command line. --impl has no default of its own: a
// reference named here would be refused by a server built without it (the
// student's handout has no solutions/), so without --impl the server picks,
// and it knows what was compiled into it (cmd/mwzk-server's impls).
func parseFlags(args []string, stderr io.Writer) (flags, error) {
	var f flags
	fs := pflag.NewFlagSet("mwzk-run", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.dir, "ensemble", "testdata/ensemble3", "folder of peer<N>.properties files, one per peer")
	fs.StringVar(&f.bin, "bin", "bin/mwzk-server", "the server binary to run once per peer")
	fs.StringVar(&f.impl, "impl", "", "passed on as --impl: solution (the reference) or assignment (your code in assignments/aufgabe5); empty: not passed, the server's default (the reference where it is compiled in, else assignment)")
	fs.BoolVar(&f.stopOnFailure, "stop-on-failure", false, "stop all peers when one exits unexpectedly")
	fs.DurationVar(&f.stopTimeout, "stop-timeout", 10*time.Second, "after Ctrl-C, how long peers may take before they are killed")
	fs.BoolVar(&f.color, "color", isTerminal(os.Stdout), "color the [peerN] prefixes (default: when standard output is a terminal)")
	fs.StringVar(&f.traceDir, "trace-dir", "", "passed on as --trace-dir: each peer writes its Zab trace there (old traces of these peers are removed first)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return f, checkImpl(f.impl)
}

// serverArgs are the flags every peer's server gets after --config.
func serverArgs(f flags) []string {
	var extra []string
	if f.impl != "" {
		extra = []string{"--impl", f.impl}
	}
	if f.traceDir != "" {
		extra = append(extra, "--trace-dir", f.traceDir)
	}
	return extra
}

func main() {
	f, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, pflag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-run:", err)
		os.Exit(2)
	}
	peers, err := findPeers(f.dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-run:", err)
		os.Exit(1)
	}
	if err := portsFree(f.dir, peers); err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-run:", err)
		os.Exit(1)
	}
	if _, err := os.Stat(f.bin); err != nil {
		fmt.Fprintf(os.Stderr, "mwzk-run: server binary %s: %v (build it with: go build -o bin/ ./cmd/mwzk-server; make run does)\n", f.bin, err)
		os.Exit(1)
	}
	if f.traceDir != "" {
		if err := freshTraces(f.traceDir, peers); err != nil {
			fmt.Fprintln(os.Stderr, "mwzk-run:", err)
			os.Exit(1)
		}
	}
	l := &launcher{
		con:           &console{w: os.Stdout, color: f.color},
		bin:           f.bin,
		extra:         serverArgs(f),
		peers:         peers,
		stopOnFailure: f.stopOnFailure,
		stopTimeout:   f.stopTimeout,
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	in := input{r: os.Stdin, say: l.con.say, foreground: terminalInput(os.Stdin), poll: time.Second}
	code := l.run(sigs, in.commands)
	if f.traceDir != "" {
		l.con.say("the peers' traces are in %s; draw them: make trace-html (./bin/zab-trace --html %s %s)",
			f.traceDir, filepath.Join(f.traceDir, "run.html"), filepath.Join(f.traceDir, "peer*.trace"))
	}
	os.Exit(code)
}

// checkImpl refuses an --impl the server does not know, before three
// peers start and fail one by one.
func checkImpl(impl string) error {
	if impl != "" && impl != "solution" && impl != "assignment" {
		return fmt.Errorf("--impl %q: want solution (the reference) or assignment (your code in assignments/aufgabe5)", impl)
	}
	return nil
}

// freshTraces removes the traces of an earlier run of these peers, so
// the run's picture holds this run only (a peer restarted by hand appends).
func freshTraces(dir string, peers []peerFile) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--trace-dir: %w", err)
	}
	for _, p := range peers {
		f := filepath.Join(dir, strings.TrimSuffix(filepath.Base(p.file), ".properties")+".trace")
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("--trace-dir: %w", err)
		}
	}
	return nil
}

// isTerminal: f is a character device, as a terminal is (and a pipe or a
// file is not).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
