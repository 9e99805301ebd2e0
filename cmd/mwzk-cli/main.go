package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"zablab/client/shell"
)

// defaultServer is peer 1's clientPort in testdata/ensemble3 (make run).
const defaultServer = "127.0.0.1:13181"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	servers := defaultServer
	var sessionTimeout time.Duration
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-timeout", "--timeout":
			ms, err := strconv.Atoi(valueOf(args))
			if err != nil || ms <= 0 {
				fmt.Fprintln(os.Stderr, "mwzk-cli: -timeout needs the session timeout in ms")
				return 2
			}
			sessionTimeout, args = time.Duration(ms)*time.Millisecond, args[2:]
		case "-server", "--server":
			if len(args) < 2 {
				fmt.Fprintln(os.Stderr, "mwzk-cli: -server needs host:port[,host:port...]")
				return 2
			}
			servers, args = args[1], args[2:]
			if err := checkServers(servers); err != nil {
				fmt.Fprintf(os.Stderr, "mwzk-cli: -server %s: %v\n", servers, err)
				return 2
			}
		case "-h", "-help", "--help":
			usage(servers)
			return 0
		default:
			fmt.Fprintf(os.Stderr, "mwzk-cli: unknown option %s (try -help)\n", args[0])
			return 2
		}
	}
	oneShot := len(args) > 0
	opts := shell.Options{Out: os.Stdout, Err: os.Stderr, SessionEvents: !oneShot, SessionTimeout: sessionTimeout}
	if d, err := time.ParseDuration(os.Getenv("MWZK_CLI_CONNECT_TIMEOUT")); err == nil {
		opts.ConnectTimeout = d
	}
	sh := shell.New(servers, opts)
	defer sh.Close()
	if !oneShot {
		fmt.Printf("Connecting to %s\n", servers)
	}
	if err := sh.Connect(); err != nil {
		fmt.Fprintf(os.Stderr, "mwzk-cli: %v\n", err)
		if h := sh.ConnectHint(err); h != "" {
			fmt.Fprintf(os.Stderr, "mwzk-cli: %s\n", h)
		}
		if oneShot {
			return 1
		}
	}
	if oneShot {
		if _, err := sh.Exec(quote(args)); err != nil {
			return 1
		}
		return 0
	}
	tty := isTerminal(os.Stdin)
	err := sh.Run(os.Stdin, tty)
	if err != nil && !errors.Is(err, shell.ErrFailed) { // a failed command has said why
		fmt.Fprintf(os.Stderr, "mwzk-cli: %v\n", err)
	}
	return sessionExit(err, tty)
}

// sessionExit is the exit status of a session read from stdin: a script
// piped in fails if any of its commands failed, but a person at a terminal
// saw each failure as it came, and `make cli` should not end in "Error 1"
// after a `get` of a missing node earlier on.
func sessionExit(err error, tty bool) int {
	switch {
	case err == nil, tty && errors.Is(err, shell.ErrFailed):
		return 0
	}
	return 1
}

// usage prints how to call mwzk-cli and its commands.
func usage(servers string) {
	fmt.Printf(`usage: mwzk-cli [-server host:port[,host:port...]] [-timeout ms] [command args...]

  -server   the servers to connect to (default %s: peer 1 of make run)
  -timeout  the session timeout in ms (default: the client's, 30000)
  command   run one command and exit (non-zero if it failed); without
            one, read commands from standard input
  MWZK_CLI_CONNECT_TIMEOUT  how long to wait for a session (default 10s)

commands:
`, defaultServer)
	var b strings.Builder
	_, _ = shell.New(servers, shell.Options{Out: &b}).Exec("help")
	// The shell's help starts with zkCli's own usage line: the one above
	// is mwzk-cli's.
	_, rest, _ := strings.Cut(b.String(), "\n")
	fmt.Print(rest)
}

// checkServers refuses a server list whose entries are not host:port, so
// "-server nonsense" is not a DNS error ten seconds later.
func checkServers(list string) error {
	for _, a := range strings.Split(list, ",") {
		host, port, err := net.SplitHostPort(strings.TrimSpace(a))
		if err != nil {
			return fmt.Errorf("%q: missing :port (want host:port[,host:port...])", a)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || host == "" {
			return fmt.Errorf("%q: want host:port with a port in 1..65535", a)
		}
	}
	return nil
}

// valueOf returns the value after a flag, "" if there is none.
func valueOf(args []string) string {
	if len(args) < 2 {
		return ""
	}
	return args[1]
}

// quote rejoins arguments into one command line, quoting those the shell
// would split ("set /a 'hello world'"), also those holding both kinds of
// quote.
func quote(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"") {
			switch {
			case !strings.Contains(a, "'"):
				a = "'" + a + "'"
			case !strings.Contains(a, `"`):
				a = `"` + a + `"`
			default:
				// Both kinds: single-quote the pieces between the
				// single quotes and write each of those as "'"; the
				// shell's split joins adjacent quoted pieces into one
				// word (x"y'z -> 'x"y'"'"'z').
				a = "'" + strings.ReplaceAll(a, "'", `'"'"'`) + "'"
			}
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// isTerminal says whether f is a terminal (prompt) rather than a pipe.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
