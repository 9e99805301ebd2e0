package shell

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"zablab/mwzookeeper"
)

// call is one parsed command line.
type call struct {
	w     io.Writer
	flags map[string]string // "-s" -> "" (switch) or the value ("-v" -> "3")
	args  []string          // positional arguments
}

func (c *call) has(flag string) bool { _, ok := c.flags[flag]; return ok }

// command is one of the shell's commands.
type command struct {
	usage    string   // zkCli's usage line
	switches []string // flags without a value
	valued   []string // flags with a value
	min, max int      // positional arguments
	needZK   bool
	pathless bool // needZK, but the first argument is no path (addauth)
	run      func(s *Shell, c *call) error
}

var commands map[string]*command

func init() {
	commands = map[string]*command{
		"connect":              {usage: "connect host:port", min: 1, max: 1, run: (*Shell).cmdConnect},
		"close":                {usage: "close ", run: (*Shell).cmdClose},
		"create":               {usage: "create [-s] [-e] [-c] [-t ttl] path [data] [acl]", switches: []string{"-s", "-e", "-c"}, valued: []string{"-t"}, min: 1, max: 3, needZK: true, run: (*Shell).cmdCreate},
		"get":                  {usage: "get [-s] [-w] path", switches: []string{"-s", "-w"}, min: 1, max: 1, needZK: true, run: (*Shell).cmdGet},
		"set":                  {usage: "set [-s] [-v version] path data", switches: []string{"-s"}, valued: []string{"-v"}, min: 2, max: 2, needZK: true, run: (*Shell).cmdSet},
		"stat":                 {usage: "stat [-w] path", switches: []string{"-w"}, min: 1, max: 1, needZK: true, run: (*Shell).cmdStat},
		"ls":                   {usage: "ls [-s] [-w] [-R] path", switches: []string{"-s", "-w", "-R"}, min: 1, max: 1, needZK: true, run: (*Shell).cmdLs},
		"delete":               {usage: "delete [-v version] path", valued: []string{"-v"}, min: 1, max: 1, needZK: true, run: (*Shell).cmdDelete},
		"deleteall":            {usage: "deleteall path", min: 1, max: 1, needZK: true, run: (*Shell).cmdDeleteAll},
		"sync":                 {usage: "sync path", min: 1, max: 1, needZK: true, run: (*Shell).cmdSync},
		"printwatches":         {usage: "printwatches on|off", max: 1, run: (*Shell).cmdPrintWatches},
		"quit":                 {usage: "quit ", run: nil},
		"exit":                 {usage: "exit ", run: nil},
		"help":                 {usage: "help ", run: (*Shell).cmdHelp},
		"getAcl":               {usage: "getAcl [-s] path", switches: []string{"-s"}, min: 1, max: 1, needZK: true, run: (*Shell).cmdGetACL},
		"setAcl":               {usage: "setAcl [-s] [-v version] [-R] path acl", switches: []string{"-s", "-R"}, valued: []string{"-v"}, min: 2, max: 2, needZK: true, run: (*Shell).cmdSetACL},
		"addauth":              {usage: "addauth scheme auth", min: 1, max: 2, needZK: true, pathless: true, run: (*Shell).cmdAddAuth},
		"whoami":               {usage: "whoami ", needZK: true, pathless: true, run: (*Shell).cmdWhoAmI},
		"getEphemerals":        {usage: "getEphemerals path", max: 1, needZK: true, run: (*Shell).cmdGetEphemerals},
		"getAllChildrenNumber": {usage: "getAllChildrenNumber path", min: 1, max: 1, needZK: true, run: (*Shell).cmdGetAllChildrenNumber},
		"addWatch": {usage: "addWatch [-m mode] path # optional mode is one of [PERSISTENT, PERSISTENT_RECURSIVE] - default is PERSISTENT_RECURSIVE",
			valued: []string{"-m"}, min: 1, max: 1, needZK: true, run: (*Shell).cmdAddWatch},
		"removewatches": {usage: "removewatches path [-c|-d|-a] [-l]", switches: []string{"-c", "-d", "-a"}, min: 1, max: 1, needZK: true, run: (*Shell).cmdRemoveWatches},
	}
}

// usageText lists every command, as zkCli's help does.
func usageText() string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("mwzk-cli -server host:port[,host:port...] cmd args\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s\n", commands[n].usage)
	}
	return b.String()
}

// dispatch runs args; path is the node the command was about, for the
// error message.
func (s *Shell) dispatch(w io.Writer, args []string) (quit bool, path string, err error) {
	cmd, ok := commands[args[0]]
	if !ok {
		hint := ""
		if first, _, split := strings.Cut(args[0], " "); split && commands[first].usage != "" {
			// mwzk-cli "get -s /a": one argument where the shell wants words.
			hint = fmt.Sprintf(" (give the command and its arguments as separate words: %s)", args[0])
		}
		return false, "", usageError(usageText() + "Command not found: " + args[0] + hint)
	}
	if args[0] == "quit" || args[0] == "exit" {
		return true, "", nil
	}
	c, err := parse(cmd, args[1:])
	if err != nil {
		return false, "", err
	}
	c.w = w
	if len(c.args) > 0 {
		path = c.args[0]
	}
	if cmd.needZK {
		if s.zk == nil {
			return false, path, errNotConnected
		}
		if cmd.pathless || len(c.args) == 0 {
			return false, path, cmd.run(s, c)
		}
		if strings.HasPrefix(cmd.usage, "create") {
			err = checkPath(path, c.has("-s"))
		} else {
			err = checkPath(path, false)
		}
		if err != nil {
			return false, path, err
		}
	}
	return false, path, cmd.run(s, c)
}

// parse splits flags from positional arguments. As zkCli 3.8 (commons-cli's
// DefaultParser), known flags count anywhere on the line ("get /a -s"); a
// word that looks like a flag but is not one is an error before the first
// argument and an argument after it, so data may begin with '-'.
func parse(cmd *command, words []string) (*call, error) {
	c := &call{flags: map[string]string{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case contains(cmd.switches, w):
			c.flags[w] = ""
		case contains(cmd.valued, w):
			if i+1 >= len(words) {
				return nil, usageError(cmd.usage)
			}
			c.flags[w] = words[i+1]
			i++
		case strings.HasPrefix(w, "-") && len(w) > 1 && len(c.args) == 0 && !strings.HasPrefix(w, "-/"):
			return nil, usageError(cmd.usage)
		default:
			c.args = append(c.args, w)
		}
	}
	if len(c.args) < cmd.min || len(c.args) > cmd.max {
		return nil, usageError(cmd.usage)
	}
	return c, nil
}

func contains(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// checkPath validates a path before anything is sent, so that the user
// sees zkCli's path messages rather than a wrapped client error.
func checkPath(path string, sequential bool) error {
	if err := mwzookeeper.ValidatePath(path, sequential); err != nil {
		return fmt.Errorf("%w: %w", errBadPath, err)
	}
	return nil
}

// version reads -v, -1 when absent.
func (c *call) version() (int32, error) {
	v, ok := c.flags["-v"]
	if !ok {
		return -1, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, usageError(fmt.Sprintf("version %q is not a number", v))
	}
	return int32(n), nil
}
