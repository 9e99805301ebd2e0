package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"zablab/internal/ports"
	"zablab/internal/procs"
	"zablab/internal/realzk"
)

// ensemble is three running servers of one system, ours or ZooKeeper's,
// started by us: the bench measures their processes and kills them by PID.
type ensemble interface {
	addrs() []string
	pids() []int
	kill(i int) // SIGKILL to server i, as kill -9
	stop()
}

// settings are what both systems run with: ZooKeeper's defaults, unless
// the flags say otherwise. noFsync is forceSync=no on both (ZooKeeper's
// system property zookeeper.forceSync, our peers' key forceSync): the
// logs are written but not fsynced, which shows what the disk costs.
type settings struct {
	tickTime, initLimit, syncLimit int
	noFsync                        bool
}

// jvmFlags run ZooKeeper as zkServer.sh does: its default heap of 1000 MiB
// and the full JIT (the tests' C1-only quick start would slow it down).
var jvmFlags = []string{"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xmx1000m"}

type zkEnsemble struct{ servers []*realzk.Server }

func startZK(dir string, t settings) (ensemble, error) {
	pp, err := ports.Free(9)
	if err != nil {
		return nil, err
	}
	all, err := realzk.StartEnsembleWith(dir, pp, 3, realzk.Settings{
		TickTime: t.tickTime, InitLimit: t.initLimit, SyncLimit: t.syncLimit, JVMFlags: zkFlags(t)})
	if err != nil {
		return nil, err
	}
	return &zkEnsemble{servers: all}, nil
}

// zkFlags are the JVM flags of ZooKeeper's servers under t.
func zkFlags(t settings) []string {
	flags := slices.Clip(jvmFlags)
	if t.noFsync {
		flags = append(flags, "-Dzookeeper.forceSync=no")
	}
	return flags
}

func (z *zkEnsemble) addrs() []string {
	var a []string
	for _, s := range z.servers {
		a = append(a, s.Addr)
	}
	return a
}

func (z *zkEnsemble) pids() []int {
	var p []int
	for _, s := range z.servers {
		p = append(p, s.Pid())
	}
	return p
}

func (z *zkEnsemble) kill(i int) { z.servers[i].Stop() } // Stop is SIGKILL
func (z *zkEnsemble) stop() {
	for _, s := range z.servers {
		s.Stop()
	}
}

// ourEnsemble is three mwzk-server processes of the reference Service.
type ourEnsemble struct {
	procs   []*procs.Proc
	addr    []string
	files   []string
	metrics []string // each server's /metrics address (metricsProvider.httpPort)
	noFsync bool     // forceSync=no: the log's "syncs" are writes only
}

var errNotServing = errors.New("not serving")

func startOurs(bin, dir string, t settings) (ensemble, error) {
	pp, err := ports.Free(9) // 3 peer ports, 3 client ports, 3 metrics ports
	if err != nil {
		return nil, err
	}
	o := &ourEnsemble{noFsync: t.noFsync}
	for i := 1; i <= 3; i++ {
		o.metrics = append(o.metrics, fmt.Sprintf("http://127.0.0.1:%d/metrics", pp[5+i]))
		file := filepath.Join(dir, fmt.Sprintf("peer%d.properties", i))
		if err := os.WriteFile(file, []byte(ourProperties(i, pp, t)), 0o644); err != nil {
			return nil, fmt.Errorf("bench: write %s: %w", file, err)
		}
		o.files = append(o.files, file)
		o.addr = append(o.addr, fmt.Sprintf("127.0.0.1:%d", pp[2+i]))
	}
	for _, file := range o.files {
		if err := o.launch(bin, file); err != nil {
			o.stop()
			return nil, err
		}
	}
	if err := awaitServing(o.addrs(), 60*time.Second); err != nil {
		o.stop()
		return nil, fmt.Errorf("bench: our ensemble in %s: %w", dir, err)
	}
	return o, nil
}

func (o *ourEnsemble) launch(bin, file string) error {
	log, err := os.Create(strings.TrimSuffix(file, ".properties") + ".log")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer log.Close()
	cmd := exec.Command(bin, "--config", file, "--impl", "solution")
	cmd.Stdout, cmd.Stderr = log, log
	p, err := procs.Launch(cmd) // its own group, killed with the bench
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	o.procs = append(o.procs, p)
	return nil
}

func (o *ourEnsemble) addrs() []string { return o.addr }

func (o *ourEnsemble) pids() []int {
	var p []int
	for _, x := range o.procs {
		p = append(p, x.Cmd.Process.Pid)
	}
	return p
}

func (o *ourEnsemble) kill(i int) { o.procs[i].Kill() }

func (o *ourEnsemble) stop() {
	for _, p := range o.procs {
		p.Kill()
	}
}

// awaitServing waits until every address answers srvr with a mode.
func awaitServing(addrs []string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for _, a := range addrs {
		for !realzk.Serving(a) {
			if time.Now().After(deadline) {
				return fmt.Errorf("%w: %s after %v", errNotServing, a, d)
			}
			time.Sleep(50 * time.Millisecond) // polling a port: nothing to wait on
		}
	}
	return nil
}

// leader returns the index of the server that says "Mode: leader".
func leader(e ensemble, d time.Duration) (int, error) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		for i, a := range e.addrs() {
			if strings.Contains(realzk.FourLetter(a, "srvr"), "Mode: leader") {
				return i, nil
			}
		}
		time.Sleep(50 * time.Millisecond) // polling srvr: nothing to wait on
	}
	return -1, fmt.Errorf("bench: no server of %v says Mode: leader after %v", e.addrs(), d)
}

// ourProperties is server i's properties file under t; pp are the 9 ports
// (3 peer ports, 3 client ports, 3 metrics ports).
func ourProperties(i int, pp []int, t settings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "myid=%d\nclientPort=%d\ndataLogDir=peer%d/log\ndataSnapDir=peer%d/snap\n", i, pp[2+i], i, i)
	for j := 1; j <= 3; j++ {
		fmt.Fprintf(&b, "peer%d=127.0.0.1:%d\n", j, pp[j-1])
	}
	fmt.Fprintf(&b, "tickTime=%d\ninitLimit=%d\nsyncLimit=%d\nmaxClientCnxns=0\n4lw.commands.whitelist=*\nlog.level=WARN\n",
		t.tickTime, t.initLimit, t.syncLimit)
	if t.noFsync {
		b.WriteString("forceSync=no\n")
	}
	fmt.Fprintf(&b, "metricsProvider.httpPort=%d\n", pp[5+i]) // the write stages' table reads the leader's
	return b.String()
}
