package realzk

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"zablab/internal/ports"
)

// Jars are the class path of Debian's ZooKeeper server, in JavaDir.
var Jars = []string{
	"zookeeper.jar", "zookeeper-jute.jar", "slf4j-api.jar", "slf4j-simple.jar",
	"netty-all.jar", "metrics-core.jar", "commons-cli.jar", "snappy-java.jar",
}

// JavaDir is where Debian's zookeeper package puts its jars.
const JavaDir = "/usr/share/java"

// JVMFlags are the options every JVM started here gets: small heap, quick
// start (C1 only), only warnings in the log, and TTL nodes allowed
// (extendedTypesEnabled; without it ZooKeeper answers createTTL with
// Unimplemented, and our server knows TTL nodes).
var JVMFlags = []string{"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xmx256m", "-XX:TieredStopAtLevel=1",
	"-Dzookeeper.extendedTypesEnabled=true"}

// StartTimeout is how long Start and StartEnsemble wait for a server to serve.
const StartTimeout = 60 * time.Second

// ErrMissing says Apache ZooKeeper cannot run here: java or a jar is
// missing. The errors that wrap it name what is missing.
var ErrMissing = errors.New("realzk: Apache ZooKeeper cannot run here")

// missing is an error that names what is missing and is ErrMissing.
type missing string

func (m missing) Error() string        { return string(m) }
func (m missing) Is(target error) bool { return target == ErrMissing }

// ClassPath returns the class path of Apache ZooKeeper: ZABLAB_ZK_CLASSPATH
// if set, else Debian's jars. Its error wraps ErrMissing and names what is
// missing (java, or the first missing jar); java is checked either way.
func ClassPath() (string, error) {
	if _, err := exec.LookPath("java"); err != nil {
		return "", missing("no java: Apache ZooKeeper cannot run here")
	}
	if cp := os.Getenv("ZABLAB_ZK_CLASSPATH"); cp != "" {
		return cp, nil
	}
	cp := make([]string, 0, len(Jars))
	for _, jar := range Jars {
		p := filepath.Join(JavaDir, jar)
		if _, err := os.Stat(p); err != nil {
			return "", missing(fmt.Sprintf("Apache ZooKeeper not installed (Debian: apt-get install zookeeper): %s missing", p))
		}
		cp = append(cp, p)
	}
	return strings.Join(cp, string(os.PathListSeparator)), nil
}

// Serving says whether the ZooKeeper at addr serves: ZooKeeper listens
// before it serves, and answers the four-letter word srvr with "Mode:"
// only once it serves.
func Serving(addr string) bool {
	return strings.Contains(FourLetter(addr, "srvr"), "Mode:")
}

// FourLetter sends the four-letter word cmd to addr and returns the
// answer, "" where there is none.
func FourLetter(addr, cmd string) string {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return ""
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte(cmd)); err != nil {
		return ""
	}
	out, _ := io.ReadAll(c)
	return string(out)
}

// Server is one Apache ZooKeeper JVM that we started.
type Server struct {
	Addr   string // client address, 127.0.0.1:port
	Log    string // the JVM's output
	cmd    *exec.Cmd
	exited chan error
}

// Stop kills the JVM (by its PID, never by name) and waits for it. It
// may be called more than once.
func (s *Server) Stop() {
	_ = s.cmd.Process.Kill()
	err := <-s.exited
	s.exited <- err
}

// Pid is the JVM's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Tail returns the last n lines of the server's log.
func (s *Server) Tail(n int) string {
	b, _ := os.ReadFile(s.Log)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// common is the configuration every server started here shares.
const common = "clientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=*\nmaxClientCnxns=0\n"

// Start runs a standalone ZooKeeper on 127.0.0.1:port with its
// configuration, data and log (zookeeper.log) in dir, and waits until it
// serves. It grants sessions of 600 ms to 10 s, as the in-tree server the
// client tests otherwise use (ZooKeeper's own default, 2 to 20 ticks, would
// cap them at 4 s: a test that rides out a few seconds of outage on a
// longer session would see it expire on one server only).
func Start(dir string, port int) (*Server, error) {
	return StartWith(dir, port)
}

// StartWith is Start with more JVM flags, such as ZooKeeper's system
// properties (-Dzookeeper.extendedTypesEnabled=true).
func StartWith(dir string, port int, flags ...string) (*Server, error) {
	cp, err := ClassPath()
	if err != nil {
		return nil, err
	}
	cfg := fmt.Sprintf("tickTime=200\nminSessionTimeout=600\nmaxSessionTimeout=10000\ndataDir=%s\nclientPort=%d\n%s",
		filepath.Join(dir, "data"), port, common)
	s, err := launch(dir, cp, "org.apache.zookeeper.server.ZooKeeperServerMain", cfg, port, append(slices.Clip(JVMFlags), flags...))
	if err != nil {
		return nil, err
	}
	if err := awaitServing([]*Server{s}); err != nil {
		return nil, err
	}
	return s, nil
}

// Settings are an ensemble's ticks and JVM; zero values take the tests'
// quick settings (tickTime 100, initLimit 20, syncLimit 10, JVMFlags).
type Settings struct {
	TickTime, InitLimit, SyncLimit int
	JVMFlags                       []string
}

func (s Settings) orDefaults() Settings {
	if s.TickTime == 0 {
		s.TickTime, s.InitLimit, s.SyncLimit = 100, 20, 10
	}
	if s.JVMFlags == nil {
		s.JVMFlags = JVMFlags
	}
	return s
}

// StartEnsemble runs an ensemble of n ZooKeeper peers, fsync on, peer i
// (1..n) in dir/zk<i>. ports holds 3n ports: the n client ports, then the
// n quorum ports, then the n election ports. It waits until every peer
// serves; on failure it stops them all.
func StartEnsemble(dir string, ports []int, n int) ([]*Server, error) {
	return StartEnsembleWith(dir, ports, n, Settings{})
}

// StartEnsembleWith is StartEnsemble with other settings (the benchmark
// runs ZooKeeper as it is deployed: tickTime 2000 and a full JIT).
func StartEnsembleWith(dir string, ports []int, n int, set Settings) ([]*Server, error) {
	set = set.orDefaults()
	if len(ports) != 3*n {
		return nil, fmt.Errorf("realzk: an ensemble of %d needs %d ports, got %d", n, 3*n, len(ports))
	}
	cp, err := ClassPath()
	if err != nil {
		return nil, err
	}
	var servers strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&servers, "server.%d=127.0.0.1:%d:%d\n", i, ports[n+i-1], ports[2*n+i-1])
	}
	var all []*Server
	for i := 1; i <= n; i++ {
		pdir := filepath.Join(dir, fmt.Sprintf("zk%d", i))
		err := os.MkdirAll(pdir, 0o755)
		if err == nil {
			err = os.WriteFile(filepath.Join(pdir, "myid"), []byte(fmt.Sprint(i)), 0o644)
		}
		var s *Server
		if err == nil {
			cfg := fmt.Sprintf("tickTime=%d\ninitLimit=%d\nsyncLimit=%d\ndataDir=%s\nclientPort=%d\n%s%s",
				set.TickTime, set.InitLimit, set.SyncLimit, pdir, ports[i-1], common, servers.String())
			s, err = launch(pdir, cp, "org.apache.zookeeper.server.quorum.QuorumPeerMain", cfg, ports[i-1], set.JVMFlags)
		}
		if err != nil {
			stopAll(all)
			return nil, fmt.Errorf("realzk: peer %d: %w", i, err)
		}
		all = append(all, s)
	}
	if err := awaitServing(all); err != nil {
		return nil, err
	}
	return all, nil
}

// launch writes dir/zoo.cfg and starts the JVM running main on it.
func launch(dir, cp, main, cfg string, port int, flags []string) (*Server, error) {
	file := filepath.Join(dir, "zoo.cfg")
	if err := os.WriteFile(file, []byte(cfg), 0o644); err != nil {
		return nil, fmt.Errorf("realzk: write %s: %w", file, err)
	}
	logf, err := os.Create(filepath.Join(dir, "zookeeper.log"))
	if err != nil {
		return nil, fmt.Errorf("realzk: %w", err)
	}
	defer logf.Close()
	args := append(append([]string{}, flags...), "-cp", cp, main, file)
	cmd := exec.Command("java", args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	// The JVM dies with the test binary, even when that is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("realzk: start java: %w", err)
	}
	s := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), Log: logf.Name(), cmd: cmd, exited: make(chan error, 1)}
	go func() { s.exited <- cmd.Wait() }()
	return s, nil
}

// awaitServing waits until every server serves; on failure it stops them
// all and names the log to read.
func awaitServing(all []*Server) error {
	deadline := time.Now().Add(StartTimeout)
	for _, s := range all {
		for !Serving(s.Addr) {
			select {
			case err := <-s.exited:
				s.exited <- err
				stopAll(all)
				return fmt.Errorf("realzk: ZooKeeper on %s exited (%v); see %s", s.Addr, err, s.Log)
			case <-time.After(50 * time.Millisecond): // polling a port: nothing to wait on
			}
			if time.Now().After(deadline) {
				stopAll(all)
				return fmt.Errorf("realzk: ZooKeeper not serving on %s after %v; see %s", s.Addr, StartTimeout, s.Log)
			}
		}
	}
	return nil
}

func stopAll(all []*Server) {
	for _, s := range all {
		s.Stop()
	}
}

// StartT starts a standalone ZooKeeper for t in t.TempDir() on a free
// port, stops it at cleanup (logging its log's tail if t failed), and
// returns its address. With ZABLAB_REALZK_ADDR set it returns that address
// and starts nothing. It skips t where ZooKeeper cannot run here.
func StartT(t testing.TB) string {
	t.Helper()
	if a := os.Getenv("ZABLAB_REALZK_ADDR"); a != "" {
		return a
	}
	return StartTWith(t)
}

// StartTWith is StartT with more JVM flags (StartWith); it always starts
// a server of its own.
func StartTWith(t testing.TB, flags ...string) string {
	t.Helper()
	if _, err := ClassPath(); err != nil {
		t.Skip(err)
	}
	p, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := StartWith(t.TempDir(), p[0], flags...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("Apache ZooKeeper's output (%s):\n%s", s.Log, s.Tail(20))
		}
	})
	return s.Addr
}

// StartEnsembleT starts an ensemble of n ZooKeeper peers for t, each JVM
// with JVMFlags and flags, stops them at cleanup (logging the first
// peer's log if t failed), and returns their addresses. It skips t where
// ZooKeeper cannot run here.
func StartEnsembleT(t testing.TB, n int, flags ...string) []string {
	t.Helper()
	if _, err := ClassPath(); err != nil {
		t.Skip(err)
	}
	p, err := ports.Free(3 * n)
	if err != nil {
		t.Fatal(err)
	}
	all, err := StartEnsembleWith(t.TempDir(), p, n, Settings{JVMFlags: append(slices.Clip(JVMFlags), flags...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Apache ZooKeeper's output (%s):\n%s", all[0].Log, all[0].Tail(20))
		}
		stopAll(all)
	})
	addrs := make([]string, n)
	for i, s := range all {
		addrs[i] = s.Addr
	}
	return addrs
}
