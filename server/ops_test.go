package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"zablab/internal/ports"
	"zablab/internal/wait"
	mw "zablab/mwzookeeper"
	"zablab/properties"
)

// opsProps turns the admin API and /metrics on, on free ports.
func opsProps(t *testing.T) string {
	t.Helper()
	pp, err := ports.Free(2)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("clientPortAddress=127.0.0.1\nadmin.serverPort=%d\nmetricsProvider.httpPort=%d\n4lw.commands.whitelist=*\n", pp[0], pp[1])
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, string(b)
}

func adminJSON(t *testing.T, s *Server, name string) map[string]any {
	t.Helper()
	code, body := httpGet(t, "http://"+s.AdminAddr().String()+"/commands/"+name)
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil || code != http.StatusOK {
		t.Fatalf("/commands/%s: status %d, %v: %s", name, code, err, body)
	}
	return m
}

// TestWhitelistAsZooKeeper: without 4lw.commands.whitelist only srvr is
// answered, others get ZooKeeper's refusal; a word ZooKeeper does not know
// in the key is an error naming the key.
func TestWhitelistAsZooKeeper(t *testing.T) {
	s := startServer(t, newFake(), "tickTime=50\nmyid=1\n")
	if got := fourLetter(t, s.Addr(), "srvr"); !strings.Contains(got, "Mode: ") {
		t.Errorf("srvr = %q, want the server's status", got)
	}
	if got := fourLetter(t, s.Addr(), "mntr"); got != "mntr is not executed because it is not in the whitelist.\n" {
		t.Errorf("mntr without the key = %q, want ZooKeeper's refusal", got)
	}
	if got := fourLetter(t, s.Addr(), "xyzw"); got != "" {
		t.Errorf("an unknown word without the key = %q, want the connection closed without an answer", got)
	}
	p, _ := properties.LoadString("clientPort=1\n4lw.commands.whitelist=srvr, ruk\n")
	if _, err := ConfigFromProperties(p, true); err == nil || !strings.Contains(err.Error(), `"4lw.commands.whitelist"`) ||
		!strings.Contains(err.Error(), `"ruk"`) {
		t.Errorf("whitelist with ruk: %v, want an error naming the key and the word", err)
	}
}

// TestOperatorWords: dump, wchc, wchp, crst and dirs answer with what the
// replica holds, in ZooKeeper's layout.
func TestOperatorWords(t *testing.T) {
	s := startA5(t, "4lw.commands.whitelist=*\n")
	c := zkClient(t, 3*time.Second, s.Addr().String())
	if _, err := c.Create("/e", nil, zk.FlagEphemeral, acl); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := c.GetW("/e"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := c.ChildrenW("/"); err != nil {
		t.Fatal(err)
	}
	sid := fmt.Sprintf("0x%x", c.SessionID())
	checks := map[string]string{
		"wchc": sid + "\n\t/\n\t/e\n",
		"wchp": "/\n\t" + sid + "\n/e\n\t" + sid + "\n",
		"crst": "Connection stats reset.\n",
	}
	for word, want := range checks {
		if got := fourLetter(t, s.Addr(), word); got != want {
			t.Errorf("%s = %q, want %q", word, got, want)
		}
	}
	dump := fourLetter(t, s.Addr(), "dump")
	for _, want := range []string{"Global Sessions(1):\n" + sid + "\t", "Sessions with Ephemerals (1):\n" + sid + ":\n\t/e\n",
		"Connections Sets (1):\n" + sid + "\n"} {
		if !strings.Contains(dump, want) {
			t.Errorf("dump = %q, want it to contain %q", dump, want)
		}
	}
	dirs := fourLetter(t, s.Addr(), "dirs")
	var data, logs int64
	if _, err := fmt.Sscanf(dirs, "datadir_size: %d\nlogdir_size: %d\n", &data, &logs); err != nil || logs == 0 {
		t.Errorf("dirs = %q (%v), want both sizes, the log's above 0", dirs, err)
	}
}

// TestAdminAPI: /commands lists the commands; monitor matches mntr, with
// ZooKeeper's field names; the other commands carry their fields.
func TestAdminAPI(t *testing.T) {
	s := startA5(t, opsProps(t))
	c := zkClient(t, 3*time.Second, s.Addr().String())
	if _, err := c.Create("/a", []byte("x"), zk.FlagEphemeral, acl); err != nil {
		t.Fatal(err)
	}
	code, list := httpGet(t, "http://"+s.AdminAddr().String()+"/commands")
	if code != http.StatusOK || !strings.Contains(list, `href="/commands/monitor"`) {
		t.Fatalf("/commands: %d %q", code, list)
	}
	mon := adminJSON(t, s, "monitor")
	mntr := fourLetter(t, s.Addr(), "mntr")
	for _, key := range []string{"znode_count", "ephemerals_count", "global_sessions", "server_state", "version"} {
		line := fmt.Sprintf("zk_%s\t%v\n", key, mon[key])
		if !strings.Contains(mntr, line) {
			t.Errorf("monitor's %s = %v, mntr %q has no line %q", key, mon[key], mntr, line)
		}
	}
	if mon["command"] != "monitor" || mon["error"] != nil || mon["ephemerals_count"] != float64(1) {
		t.Errorf("monitor = %v, want command monitor, error null, ephemerals_count 1", mon)
	}
	fields := map[string][]string{
		"ruok": {"command", "error"}, "stat": {"server_stats", "connections", "node_count"}, "srvr": {"server_stats"},
		"conf": {"client_port", "tick_time", "server_id"}, "cons": {"connections"}, "envi": {"go.version"},
		"dirs": {"datadir_size", "logdir_size"}, "dump": {"session_id_to_ephemeral_paths"},
		"wchs": {"num_total_watches"}, "wchc": {"session_id_to_watched_paths"}, "wchp": {"path_to_session_ids"},
		"leader": {"is_leader", "leader_id"}, "voting_view": {"current_config"}, "is_read_only": {"read_only"},
		"last_snapshot": {"zxid", "timestamp"}, "initial_configuration": {"initial_configuration"},
	}
	for name, want := range fields {
		m := adminJSON(t, s, name)
		for _, f := range want {
			if _, ok := m[f]; !ok {
				t.Errorf("/commands/%s = %v: no field %q", name, m, f)
			}
		}
	}
	if code, body := httpGet(t, "http://"+s.AdminAddr().String()+"/commands/bogus"); code != http.StatusNotFound ||
		!strings.Contains(body, "Unknown command: bogus") {
		t.Errorf("/commands/bogus: %d %q", code, body)
	}
}

// TestMetrics: /metrics has ZooKeeper's names, the Zab layer's fsync
// and commit histograms, and passes promtool's check where Debian's
// prometheus package is installed.
func TestMetrics(t *testing.T) {
	s := startA5(t, opsProps(t))
	c := zkClient(t, 3*time.Second, s.Addr().String())
	for i := range 5 {
		if _, err := c.Create("/m"+strconv.Itoa(i), nil, 0, acl); err != nil {
			t.Fatal(err)
		}
	}
	url := "http://" + s.MetricsAddr().String() + "/metrics"
	var body string
	wait.For(t, "the commit histogram to count the creates", 10*time.Second, func() bool {
		_, body = httpGet(t, url)
		return strings.Contains(body, `zab_fsync_seconds_count{peer="1"}`)
	})
	for _, want := range []string{"# TYPE zab_fsync_seconds histogram", "zab_proposal_commit_seconds_bucket{peer=\"1\"",
		"zab_fsync_batch_entries_bucket", "num_alive_connections 1", "znodes ", "ephemerals 0", "open_file_descriptors ", "zab_epoch{peer=\"1\"}", "quorum_size 1"} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not installed (Debian package prometheus; .ci/run installs it): the format check is skipped")
	}
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(body)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.WriteFile(t.TempDir()+"/metrics.txt", []byte(body), 0o644)
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}

// failingStart is a Service whose Start fails, as a peer with a locked
// data folder or a bad key does.
type failingStart struct{ *fake }

func (failingStart) Start(*properties.Properties, mw.Host) error {
	return errors.New("data folder in use")
}

// TestNoListeningLineWhenStartFails: a server whose Service does not start
// never says its admin API or metrics listen (an operator would look there).
func TestNoListeningLineWhenStartFails(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	p, err := properties.LoadString(testProps + opsProps(t))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(p, func() mw.Service { return failingStart{newFake()} }, Options{Listener: ln, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err == nil {
		s.Stop()
		t.Fatal("Start succeeded with a failing Service")
	}
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "listening") {
			t.Errorf("a server that did not start logged %q", e.Message)
		}
	}
}

// TestEveryKnownWordIsAnswered: each word of fourLetterWords has an answer
// (answerWord's switch and the list are kept by hand).
func TestEveryKnownWordIsAnswered(t *testing.T) {
	s := startServer(t, newFake(), testProps)
	for _, w := range fourLetterWords {
		// wchc and wchp list watches by session and path: nothing without any
		if got := fourLetter(t, s.Addr(), w); got == "" && w != "wchc" && w != "wchp" {
			t.Errorf("%s: no answer", w)
		}
	}
}

// TestDataDirsAreShownAbsolute: a relative dataLogDir (from a peer file
// given by a relative path, or no file) is shown absolute in conf and the
// admin API's configuration, which an operator reads from anywhere.
func TestDataDirsAreShownAbsolute(t *testing.T) {
	s := startServer(t, newFake(), opsProps(t)+"tickTime=50\nmyid=1\ndataLogDir=rel/log1\n")
	want, err := filepath.Abs("rel/log1")
	if err != nil {
		t.Fatal(err)
	}
	conf := fourLetter(t, s.Addr(), "conf")
	for _, line := range []string{"dataDir=" + want + "\n", "dataLogDir=" + want + "\n"} {
		if !strings.Contains(conf, line) {
			t.Errorf("conf lacks %q:\n%s", line, conf)
		}
	}
	cfg := adminJSON(t, s, "configuration")
	for _, key := range []string{"data_dir", "data_log_dir"} {
		if cfg[key] != want {
			t.Errorf("configuration's %s = %v, want %s", key, cfg[key], want)
		}
	}
}

// TestDataDirOfAPeerFileInAFolder: a peer file given by a relative path
// with a folder (mwzk-server conf/peer1.properties) and no dataSnapDir:
// conf shows the log folder as the data folder too, resolved once.
func TestDataDirOfAPeerFileInAFolder(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("conf", 0o755); err != nil {
		t.Fatal(err)
	}
	text := opsProps(t) + "tickTime=50\nmyid=1\ndataLogDir=log1\n"
	if err := os.WriteFile("conf/peer1.properties", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := properties.LoadFile("conf/peer1.properties")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	svc := newFake()
	s, err := New(p, func() mw.Service { return svc }, Options{Listener: ln, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	want, err := filepath.Abs("conf/log1")
	if err != nil {
		t.Fatal(err)
	}
	conf := fourLetter(t, s.Addr(), "conf")
	for _, line := range []string{"dataLogDir=" + want + "\n", "dataDir=" + want + "\n"} {
		if !strings.Contains(conf, line) {
			t.Errorf("conf lacks %q:\n%s", line, conf)
		}
	}
}

// TestVotingViewNamesNoOtherPeersClientPort: a peer knows only its own
// client port, so voting_view must not pair every peer's Zab address with
// it (peer 2 of make run listed 13281 for peers 1 and 3, whose clients
// connect at 13181 and 13381). ZooKeeper 3.8 with a static configuration
// lists each server's quorum address alone, and so does this.
func TestVotingViewNamesNoOtherPeersClientPort(t *testing.T) {
	props := "myid=2\nclientPort=13281\ntickTime=50\npeer1=127.0.0.1:13100\npeer2=127.0.0.1:13200\npeer3=127.0.0.1:13300:observer\n" +
		opsProps(t)
	s := startServer(t, newFake(), props)
	view, ok := adminJSON(t, s, "voting_view")["current_config"].(map[string]any)
	if !ok {
		t.Fatalf("voting_view has no current_config object")
	}
	want := map[string]any{"1": "127.0.0.1:13100", "2": "127.0.0.1:13200", "3": "127.0.0.1:13300:observer"}
	if fmt.Sprint(view) != fmt.Sprint(want) {
		t.Errorf("voting_view current_config = %v, want %v (no client port: a peer knows only its own)", view, want)
	}
}
