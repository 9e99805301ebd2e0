package zktest

import (
	"fmt"
	"os/exec"
	"syscall"

	"zablab/internal/realzk"
)

// ZkCliCommand returns the command that runs Debian's zkCli (Java's
// ZooKeeperMain) against server, reading commands from standard input,
// or an error wrapping ErrSkip where Java or ZooKeeper is missing.
// ZABLAB_ZK_CLASSPATH overrides the class path (see realzk.ClassPath).
func ZkCliCommand(server string) (*exec.Cmd, error) {
	cp, err := realzk.ClassPath()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errSkip, err)
	}
	cmd := exec.Command("java", "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-XX:TieredStopAtLevel=1",
		"-cp", cp, "org.apache.zookeeper.ZooKeeperMain", "-server", server)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd, nil
}
