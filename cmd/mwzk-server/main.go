// Command mwzk-server runs one MWZooKeeper peer: a Service (the reference
// solution or the student's) behind ZooKeeper's client protocol, configured
// by the peer's properties file.
//
//	mwzk-server --config peer1.properties [--impl solution|assignment]
//
// --impl picks the Service: the reference solution (the default where the
// tree has it) or the student's stubs in assignments/aufgabe5.
//
// The file holds Zab's keys (myid, peer<i>, dataLogDir, tickTime, ...), the
// logging keys (log.level, log.file, log.format) and the server's:
// clientPort (required), clientPortAddress (default 127.0.0.1),
// maxClientCnxns (per client IP, default 60, 0 = unlimited),
// minSessionTimeout and maxSessionTimeout (ms, default 2 and 20 ticks).
// SIGTERM or SIGINT stops the peer cleanly (sessions are left to expire
// or to move to another peer) and it exits 0. A bad configuration is one
// error line naming the file, the line and the key, and exit code 2.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"zablab/logging"
	"zablab/properties"
	"zablab/server"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1 // the peer failed while running
	exitUsage  = 2 // bad flags or configuration
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	config, impl, code := parseFlags(args, stderr)
	if code >= 0 {
		return code
	}
	factory := impls[impl]
	p, err := properties.LoadFile(config)
	if err != nil {
		fmt.Fprintln(stderr, "mwzk-server:", err)
		return exitUsage
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
		var pe *properties.Error
		if errors.As(err, &pe) {
			return exitUsage
		}
		return exitFailed
	}
	id, _ := p.Get("myid")
	log.WithField("peer", strings.TrimSpace(id)).WithField("impl", impl).
		Infof("mwzk-server listening for clients on %s", srv.Addr())
	sig := <-sigs
	log.WithField("signal", sig.String()).Info("stopping")
	if err := srv.Stop(); err != nil {
		log.WithError(err).Error("stop failed")
		return exitFailed
	}
	return exitOK
}

// parseFlags reads the command line. A code of 0 or more means: exit with
// it now (help, or a usage error already printed with the usage).
func parseFlags(args []string, stderr io.Writer) (config, impl string, code int) {
	fs := pflag.NewFlagSet("mwzk-server", pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed once, below, with the usage
	fs.StringVar(&config, "config", "", "the peer's properties file (required)")
	fs.StringVar(&impl, "impl", defaultImpl(), "the Service to run: "+strings.Join(implNames(), " or "))
	usage := func() {
		fmt.Fprintf(stderr, "usage: mwzk-server --config peerN.properties [--impl %s]\n\nFlags:\n%s",
			strings.Join(implNames(), "|"), fs.FlagUsages())
	}
	fail := func(format string, a ...any) (string, string, int) {
		fmt.Fprintf(stderr, "mwzk-server: "+format+"\n", a...)
		usage()
		return "", "", exitUsage
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			usage()
			return "", "", exitOK
		}
		return fail("%v", err)
	}
	if _, ok := impls[impl]; !ok {
		return fail("--impl %q: want one of %s", impl, strings.Join(implNames(), ", "))
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q (the peer's file goes after --config)", fs.Arg(0))
	}
	if config == "" {
		return fail("--config is required: the peer's properties file")
	}
	return config, impl, -1
}

func implNames() []string {
	var names []string
	for n := range impls {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
