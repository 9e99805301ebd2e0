package interop

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"zablab/internal/procs"

	"github.com/sirupsen/logrus"

	"zablab/internal/ports"
	"zablab/internal/wait"
	"zablab/mwzookeeper"
	"zablab/properties"
	"zablab/server"
)

// factory makes the Service the ensemble runs; nil where the tree has no
// reference (solution_test.go sets it).
var factory mwzookeeper.Factory

// startTarget starts what the clients talk to and returns one client
// address per server: three peers of ours, or (ZABLAB_INTEROP_TARGET=
// zookeeper) Debian's ZooKeeper, one standalone server named three times.
func startTarget(t *testing.T) []string {
	t.Helper()
	switch target := os.Getenv("ZABLAB_INTEROP_TARGET"); target {
	case "", "mwzookeeper":
		return startOurs(t, 3)
	case "zookeeper":
		a := startDebianZooKeeper(t)
		return []string{a, a, a}
	default:
		t.Fatalf("ZABLAB_INTEROP_TARGET=%q: want mwzookeeper (default) or zookeeper", target)
		return nil
	}
}

// startOurs starts an n-peer ensemble of server.Server around factory in
// this process and waits until every peer serves clients.
func startOurs(t *testing.T, n int) []string {
	t.Helper()
	addrs, _, _ := startOursWith(t, n, "")
	return addrs
}

// startOursWith is startOurs with more keys in every peer's properties; it
// also returns the peers and, per peer, a function that starts it again.
func startOursWith(t *testing.T, n int, extra string) ([]string, []*server.Server, []func() *server.Server) {
	t.Helper()
	if factory == nil {
		t.Skip("the reference Service (solutions/aufgabe5) is not in this tree: nothing to run the clients against")
	}
	free, err := ports.Free(2 * n)
	if err != nil {
		t.Fatal(err)
	}
	peerPorts, clientPorts := free[:n], free[n:]
	dir := t.TempDir()
	var addrs []string
	var srvs []*server.Server
	var starts []func() *server.Server
	for i := 1; i <= n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "myid=%d\nclientPort=%d\n", i, clientPorts[i-1])
		for j, port := range peerPorts {
			fmt.Fprintf(&b, "peer%d=127.0.0.1:%d\n", j+1, port)
		}
		fmt.Fprintf(&b, "dataLogDir=peer%d/log\ndataSnapDir=peer%d/snap\n", i, i)
		fmt.Fprintf(&b, "tickTime=100\ninitLimit=20\nsyncLimit=10\nlog.level=%s\n%s", javaLevel(logLevel()), extra)
		file := filepath.Join(dir, fmt.Sprintf("peer%d.properties", i))
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := properties.LoadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		start := func() *server.Server {
			s, err := server.New(p, factory, server.Options{Logger: logger().WithField("peer", i)})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Stop() })
			return s
		}
		srvs = append(srvs, start())
		starts = append(starts, start)
		addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", clientPorts[i-1]))
	}
	waitServing(t, addrs)
	return addrs, srvs, starts
}

// startDebianZooKeeper starts Debian's ZooKeeper as one standalone server
// in a temporary folder and returns its client address.
func startDebianZooKeeper(t *testing.T) string {
	t.Helper()
	need(t, "java and Debian's ZooKeeper server", "zookeeper", func() error {
		if _, err := exec.LookPath("java"); err != nil {
			return err
		}
		_, err := os.Stat(zooKeeperJar)
		return err
	})
	p, err := ports.Free(1)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("java", "-cp", "/etc/zookeeper/conf:"+zooKeeperJar,
		"-Dzookeeper.admin.enableServer=false", "-Dzookeeper.4lw.commands.whitelist=*",
		"org.apache.zookeeper.server.ZooKeeperServerMain", fmt.Sprint(p[0]), t.TempDir())
	if logLevel() >= logrus.DebugLevel {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	procs.Start(t, cmd)
	addr := fmt.Sprintf("127.0.0.1:%d", p[0])
	waitServing(t, []string{addr})
	return addr
}

// zooKeeperJar is Debian's ZooKeeper (server and Java client).
const zooKeeperJar = "/usr/share/java/zookeeper.jar"

var modeLine = regexp.MustCompile(`(?m)^Mode: (leader|follower|standalone)$`)

// waitServing waits until each address answers the four-letter word srvr
// with a mode, which ZooKeeper and our server both do only while serving.
func waitServing(t *testing.T, addrs []string) {
	t.Helper()
	for _, a := range addrs {
		wait.For(t, "srvr on "+a+" naming a mode", 60*time.Second, func() bool {
			return modeLine.MatchString(fourLetter(a, "srvr"))
		})
	}
}

// fourLetter sends a four-letter word and returns the answer ("" if none).
func fourLetter(addr, word string) string {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return ""
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second)) //nolint:errcheck // a dead connection reads nothing
	if _, err := io.WriteString(c, word); err != nil {
		return ""
	}
	b, _ := io.ReadAll(c)
	return string(b)
}

// logLevel is the peers' log level: ZABLAB_LOG, else WARN.
func logLevel() logrus.Level {
	if lv, err := logrus.ParseLevel(os.Getenv("ZABLAB_LOG")); err == nil {
		return lv
	}
	return logrus.WarnLevel
}

// javaLevel is a logrus level as the log.level key spells it.
func javaLevel(lv logrus.Level) string {
	if lv == logrus.WarnLevel {
		return "WARN"
	}
	return strings.ToUpper(lv.String())
}

func logger() *logrus.Logger {
	l := logrus.New()
	l.SetLevel(logLevel())
	return l
}
