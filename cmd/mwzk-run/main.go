package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"
)

func main() {
	dir := pflag.String("ensemble", "testdata/ensemble3", "folder of peer<N>.properties files, one per peer")
	bin := pflag.String("bin", "bin/mwzk-server", "the server binary to run once per peer")
	impl := pflag.String("impl", "solution", "passed on as --impl: solution (reference) or assignment (your stubs); empty: not passed")
	stopOnFailure := pflag.Bool("stop-on-failure", false, "stop all peers when one exits unexpectedly")
	stopTimeout := pflag.Duration("stop-timeout", 10*time.Second, "after Ctrl-C, how long peers may take before they are killed")
	color := pflag.Bool("color", isTerminal(os.Stdout), "color the [peerN] prefixes (default: when standard output is a terminal)")
	traceDir := pflag.String("trace-dir", "", "passed on as --trace-dir: each peer writes its Zab trace there (old traces of these peers are removed first)")
	pflag.Parse()
	if pflag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "mwzk-run: unexpected arguments %q\n", pflag.Args())
		os.Exit(2)
	}
	peers, err := findPeers(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-run:", err)
		os.Exit(1)
	}
	if err := checkImpl(*impl); err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-run:", err)
		os.Exit(2)
	}
	if err := portsFree(*dir, peers); err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-run:", err)
		os.Exit(1)
	}
	if _, err := os.Stat(*bin); err != nil {
		fmt.Fprintf(os.Stderr, "mwzk-run: server binary %s: %v (build it with: go build -o bin/ ./cmd/mwzk-server; make run does)\n", *bin, err)
		os.Exit(1)
	}
	var extra []string
	if *impl != "" {
		extra = []string{"--impl", *impl}
	}
	if *traceDir != "" {
		if err := freshTraces(*traceDir, peers); err != nil {
			fmt.Fprintln(os.Stderr, "mwzk-run:", err)
			os.Exit(1)
		}
		extra = append(extra, "--trace-dir", *traceDir)
	}
	l := &launcher{
		con:           &console{w: os.Stdout, color: *color},
		bin:           *bin,
		extra:         extra,
		peers:         peers,
		stopOnFailure: *stopOnFailure,
		stopTimeout:   *stopTimeout,
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	code := l.run(sigs, readCommands(os.Stdin))
	if *traceDir != "" {
		l.con.say("the peers' traces are in %s; draw them: make trace-html (./bin/zab-trace --html %s %s)",
			*traceDir, filepath.Join(*traceDir, "run.html"), filepath.Join(*traceDir, "peer*.trace"))
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
