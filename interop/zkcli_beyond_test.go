package interop

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"zablab/internal/realzk"
)

// beyondScript uses zkCli.sh's commands for ZooKeeper 3.8's calls beyond
// the assignment sheet: getEphemerals (with and without a prefix),
// getAllChildrenNumber, and whoami before and after addauth.
const beyondScript = `create /bey ""
create /bey/a ""
create /bey/a/b ""
create -e /bey/e1 ""
create -e /bey/a/e2 ""
create -e /bey2 ""
getEphemerals
getEphemerals /bey/a
getEphemerals /nothing
getAllChildrenNumber /bey
getAllChildrenNumber /bey/a/b
getAllChildrenNumber /missing
whoami
addauth digest ada:secret
whoami
`

// beyondLines keeps what the script's commands printed, without the
// shell's banner, prompts and log lines, with the client's address named.
// Both servers keep a session's ephemerals and a connection's identities
// in sets, ZooKeeper in hash sets: lists and runs of identities are
// compared sorted.
func beyondLines(out string) []string {
	var keep []string
	identity := regexp.MustCompile(`^(ip|digest|sasl|x509|super): `)
	noise := regexp.MustCompile(`SLF4J|^Connecting to |^Welcome to ZooKeeper|^JLine|^\[zk:|WATCHER::|^WatchedEvent|^Created /| INFO | WARN `)
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "", noise.MatchString(l):
		case identity.MatchString(l):
			if strings.HasPrefix(l, "ip: 127.0.0.1") {
				l = "ip: <client address>"
			}
			keep = append(keep, l)
			// a run of identities in sorted order
			for i := len(keep) - 1; i > 0 && identity.MatchString(keep[i-1]) && keep[i-1] > keep[i]; i-- {
				keep[i-1], keep[i] = keep[i], keep[i-1]
			}
		case strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]"):
			items := strings.Split(strings.Trim(l, "[]"), ", ")
			slices.Sort(items)
			keep = append(keep, "["+strings.Join(items, ", ")+"]")
		default:
			keep = append(keep, l)
		}
	}
	return keep
}

// TestZkCliBeyondTheSheetAsZooKeeper: zkCli.sh prints the same for
// getEphemerals, getAllChildrenNumber and whoami against our ensemble as
// against Debian's ZooKeeper 3.8 (getAllChildrenNumber of "/" differs by
// design: ZooKeeper's tree has /zookeeper/quota and /zookeeper/config).
func TestZkCliBeyondTheSheetAsZooKeeper(t *testing.T) {
	need(t, "ZooKeeper's zkCli.sh and java", "zookeeper", func() error {
		if err := executable("java")(); err != nil {
			return err
		}
		return executable(zkCliPath)()
	})
	want := beyondLines(zkCli(t, realzk.StartT(t), beyondScript))
	got := beyondLines(zkCli(t, startTarget(t)[0], beyondScript))
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("zkCli.sh against ZooKeeper 3.8:\n\t%s\nagainst ours:\n\t%s", strings.Join(want, "\n\t"), strings.Join(got, "\n\t"))
	}
}
