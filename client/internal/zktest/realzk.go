package zktest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Debian's zookeeper package puts its jars here; ZABLAB_ZK_CLASSPATH
// overrides the class path for other layouts.
var realZKJars = []string{
	"zookeeper.jar", "zookeeper-jute.jar", "slf4j-api.jar", "slf4j-simple.jar",
	"netty-all.jar", "metrics-core.jar", "commons-cli.jar", "snappy-java.jar",
}

const debianJavaDir = "/usr/share/java"

// errNoRealZK says the real ZooKeeper cannot run here; tests skip on it.
var errNoRealZK = errors.New("zktest: Apache ZooKeeper not installed (Debian: apt-get install zookeeper), or no java")

func realZKClassPath() (string, error) {
	if cp := os.Getenv("ZABLAB_ZK_CLASSPATH"); cp != "" {
		return cp, nil
	}
	if _, err := exec.LookPath("java"); err != nil {
		return "", errNoRealZK
	}
	var cp []string
	for _, jar := range realZKJars {
		p := filepath.Join(debianJavaDir, jar)
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: %s missing", errNoRealZK, p)
		}
		cp = append(cp, p)
	}
	return strings.Join(cp, string(os.PathListSeparator)), nil
}

// ZkCliCommand returns the command that runs Debian's zkCli (Java's
// ZooKeeperMain) against server, reading commands from standard input,
// or an error wrapping ErrSkip where Java or ZooKeeper is missing.
func ZkCliCommand(server string) (*exec.Cmd, error) {
	cp, err := realZKClassPath()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errSkip, err)
	}
	cmd := exec.Command("java", "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-XX:TieredStopAtLevel=1",
		"-cp", cp, "org.apache.zookeeper.ZooKeeperMain", "-server", server)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd, nil
}

// realZK is a standalone Apache ZooKeeper in a Java process.
type realZK struct {
	cmd    *exec.Cmd
	exited chan error
	dir    string
	addr   string
}

// startRealZK runs a standalone ZooKeeper on port with its data in dir and
// waits until it accepts connections.
func startRealZK(dir string, port int) (*realZK, error) {
	cp, err := realZKClassPath()
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, "zoo.cfg")
	conf := fmt.Sprintf("tickTime=200\ndataDir=%s\nclientPort=%d\nclientPortAddress=127.0.0.1\n"+
		"admin.enableServer=false\n4lw.commands.whitelist=*\n", filepath.Join(dir, "data"), port)
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		return nil, fmt.Errorf("zktest: write %s: %w", cfg, err)
	}
	logf, err := os.Create(filepath.Join(dir, "zookeeper.log"))
	if err != nil {
		return nil, fmt.Errorf("zktest: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command("java", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xmx256m",
		"-cp", cp, "org.apache.zookeeper.server.quorum.QuorumPeerMain", cfg)
	cmd.Stdout, cmd.Stderr = logf, logf
	// The JVM dies with the test binary, even when that is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("zktest: start java: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	z := &realZK{cmd: cmd, exited: exited, dir: dir, addr: fmt.Sprintf("127.0.0.1:%d", port)}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if serving(z.addr) {
			return z, nil
		}
		select {
		case err := <-exited:
			exited <- err
			return nil, fmt.Errorf("zktest: ZooKeeper exited (%v); see %s", err, logf.Name())
		case <-time.After(50 * time.Millisecond): // polling a port: nothing to wait on
		}
		if time.Now().After(deadline) {
			z.stop()
			return nil, fmt.Errorf("zktest: ZooKeeper not listening on %s after 30s; see %s", z.addr, logf.Name())
		}
	}
}

// stop kills the JVM we started (by its PID, never by name).
func (z *realZK) stop() {
	_ = z.cmd.Process.Kill()
	<-z.exited
}

// serving asks the four-letter word srvr: ZooKeeper listens before it
// serves, and answers "Mode: standalone" only once it serves.
func serving(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("srvr")); err != nil {
		return false
	}
	out, _ := io.ReadAll(c)
	return strings.Contains(string(out), "Mode:")
}
