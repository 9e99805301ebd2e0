package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"zablab/logging"
	"zablab/properties"
	"zablab/server"
	"zablab/zab"
)

// Exit codes. 2 says the command line or the file is wrong as written:
// running it again is pointless. 1 says the peer failed, at start on
// something outside the file (a port or a data folder another process
// holds, a disk error) or while running: the same command may succeed
// later, so a supervisor may restart on 1 but not on 2.
const (
	exitOK     = 0
	exitFailed = 1 // the peer failed to start or while running
	exitUsage  = 2 // bad flags or configuration
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fl, code := parseFlags(args, stderr)
	if code >= 0 {
		return code
	}
	factory := impls[fl.impl]
	p, err := properties.LoadFile(fl.config)
	if err != nil {
		fmt.Fprintln(stderr, "mwzk-server:", err)
		return exitUsage
	}
	if fl.traceDir != "" {
		if err := setTraceFile(p, fl.traceDir, fl.config); err != nil {
			fmt.Fprintln(stderr, "mwzk-server:", err)
			return exitUsage
		}
	}
	log, closer, err := logging.New(p)
	if err != nil {
		fmt.Fprintln(stderr, "mwzk-server:", err)
		return exitUsage
	}
	defer closer.Close()
	srv, err := server.New(p, factory, server.Options{Logger: log})
	if err != nil {
		fmt.Fprintln(stderr, "mwzk-server:", err)
		return exitUsage
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	if err := srv.Start(); err != nil {
		fmt.Fprintln(stderr, "mwzk-server:", err)
		return startExit(err)
	}
	log.WithField("peer", srv.ID()).WithField("impl", fl.impl).
		Infof("mwzk-server listening for clients on %s", srv.Addr())
	sig := <-sigs
	log.WithField("signal", sig.String()).Info("stopping")
	if err := srv.Stop(); err != nil {
		log.WithError(err).Error("stop failed")
		return exitFailed
	}
	return exitOK
}

// startExit is the exit code for a failed Start: a key whose value is
// wrong (the Service reads Zab's keys only now) is a usage error; a port
// that cannot be listened on names its key too but is a failure to start,
// as a taken Zab port or a data folder in use is.
func startExit(err error) int {
	var pe *properties.Error
	if errors.As(err, &pe) && !errors.Is(err, server.ErrListen) {
		return exitUsage
	}
	return exitFailed
}

// parseFlags reads the command line. A code of 0 or more means: exit with
// it now (help, or a usage error already printed with the usage).
// flags are mwzk-server's command line.
type flags struct {
	config, impl, traceDir string
}

func parseFlags(args []string, stderr io.Writer) (fl flags, code int) {
	fs := pflag.NewFlagSet("mwzk-server", pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed once, below, with the usage
	fs.StringVar(&fl.config, "config", "", "the peer's properties file (required)")
	fs.StringVar(&fl.impl, "impl", defaultImpl(), "the Service to run: "+strings.Join(implNames(), " or "))
	fs.StringVar(&fl.traceDir, "trace-dir", "", "write the peer's Zab trace to DIR/<config name>.trace (sets trace.file)")
	usage := func() {
		fmt.Fprintf(stderr, "usage: mwzk-server --config peerN.properties [--impl %s] [--trace-dir DIR]\n\nFlags:\n%s",
			strings.Join(implNames(), "|"), fs.FlagUsages())
	}
	fail := func(format string, a ...any) (flags, int) {
		fmt.Fprintf(stderr, "mwzk-server: "+format+"\n", a...)
		usage()
		return flags{}, exitUsage
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			usage()
			return flags{}, exitOK
		}
		return fail("%v", err)
	}
	if _, ok := impls[fl.impl]; !ok {
		return fail("--impl %q: want one of %s", fl.impl, strings.Join(implNames(), ", "))
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q (the peer's file goes after --config)", fs.Arg(0))
	}
	if fl.config == "" {
		return fail("--config is required: the peer's properties file")
	}
	return fl, -1
}

func implNames() []string {
	var names []string
	for n := range impls {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// setTraceFile sets trace.file to dir/<config name>.trace, as an absolute
// path (a relative one would be taken relative to the config's folder).
func setTraceFile(p *properties.Properties, dir, config string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("--trace-dir %s: %w", dir, err)
	}
	// Made here, so that a folder that cannot be is named as the flag: the
	// peer would report it as the file's trace.file, a key it has not.
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return fmt.Errorf("--trace-dir %s: %w", dir, err)
	}
	name := strings.TrimSuffix(filepath.Base(config), filepath.Ext(config)) + ".trace"
	p.Set(zab.KeyTraceFile, filepath.Join(abs, name))
	return nil
}
