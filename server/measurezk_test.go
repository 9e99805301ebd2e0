package server

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"zablab/internal/ports"
	"zablab/internal/wait"
)

// Debian's zookeeper package puts its jars here.
var zkJars = []string{
	"zookeeper.jar", "zookeeper-jute.jar", "slf4j-api.jar", "slf4j-simple.jar",
	"netty-all.jar", "metrics-core.jar", "commons-cli.jar", "snappy-java.jar",
}

// startApacheZK runs a 3-peer Apache ZooKeeper ensemble (fsync on, as
// ours) in three JVMs and returns its client addresses; it skips the test
// where java or the jars are missing.
func startApacheZK(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java: Apache ZooKeeper cannot run here")
	}
	var cp []string
	for _, j := range zkJars {
		p := filepath.Join("/usr/share/java", j)
		if _, err := os.Stat(p); err != nil {
			t.Skipf("Apache ZooKeeper not installed (Debian: apt-get install zookeeper): %s missing", p)
		}
		cp = append(cp, p)
	}
	pp, err := ports.Free(9)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var servers strings.Builder
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&servers, "server.%d=127.0.0.1:%d:%d\n", i, pp[3+i-1], pp[6+i-1])
	}
	var addrs []string
	for i := 1; i <= 3; i++ {
		data := filepath.Join(dir, fmt.Sprintf("zk%d", i))
		os.MkdirAll(data, 0o755)
		os.WriteFile(filepath.Join(data, "myid"), []byte(fmt.Sprint(i)), 0o644)
		cfg := filepath.Join(data, "zoo.cfg")
		os.WriteFile(cfg, []byte(fmt.Sprintf("tickTime=100\ninitLimit=20\nsyncLimit=10\ndataDir=%s\nclientPort=%d\n"+
			"clientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=*\nmaxClientCnxns=0\n%s",
			data, pp[i-1], servers.String())), 0o644)
		cmd := exec.Command("java", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xmx256m",
			"-cp", strings.Join(cp, ":"), "org.apache.zookeeper.server.quorum.QuorumPeerMain", cfg)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // our own JVM, by PID
		addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", pp[i-1]))
	}
	wait.For(t, "Apache ZooKeeper serving on all three", 60*time.Second, func() bool {
		for _, a := range addrs {
			if !strings.Contains(srvr(a), "Mode: ") {
				return false
			}
		}
		return true
	})
	return addrs
}

func srvr(addr string) string {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return ""
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	c.Write([]byte("srvr"))
	out, _ := io.ReadAll(c)
	return string(out)
}
