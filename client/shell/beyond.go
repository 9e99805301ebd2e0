package shell

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"zablab/client"
	"zablab/mwzookeeper"
)

// ZooKeeper 3.8's commands beyond the sheet: ACLs, authentication, TTL
// nodes and containers, and the calls client reaches through go-zk's
// request (whoami, getEphemerals, getAllChildrenNumber, addWatch,
// removewatches).

func (s *Shell) cmdCreate(c *call) error {
	mode, ttl, err := createMode(c)
	if err != nil {
		return err
	}
	var data []byte
	if len(c.args) > 1 {
		data = []byte(c.args[1])
	}
	acl := client.OpenACL()
	if len(c.args) > 2 {
		if acl = parseACL(c.args[2], s.opts.Err); len(acl) == 0 {
			// The Java client refuses an empty ACL itself, with no path.
			fmt.Fprintln(c.w, "KeeperErrorCode = InvalidACL")
			return errEmptyACL
		}
	}
	var name string
	switch {
	case ttl > 0:
		name, err = s.zk.CreateTTL(c.args[0], data, mode, acl, time.Duration(ttl)*time.Millisecond)
	case mode == mwzookeeper.Container:
		name, err = s.zk.CreateContainer(c.args[0], data, acl)
	default:
		name, err = s.zk.CreateACL(c.args[0], data, mode, acl)
	}
	if errors.Is(err, mwzookeeper.ErrInvalidACL) {
		// zkCli prints the exception's text, then its CLI sentence.
		fmt.Fprintf(c.w, "KeeperErrorCode = InvalidACL for %s\n", c.args[0])
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.w, "Created %s\n", name)
	return nil
}

// createMode reads create's flags with zkCli 3.8's checks and messages.
func createMode(c *call) (mwzookeeper.CreateMode, int64, error) {
	e, sq, ctr, hasT := c.has("-e"), c.has("-s"), c.has("-c"), c.has("-t")
	if ctr && (e || sq) {
		return 0, 0, usageError("-c cannot be combined with -s or -e. Containers cannot be ephemeral or sequential.")
	}
	var ttl int64
	if hasT {
		var err error
		if ttl, err = strconv.ParseInt(c.flags["-t"], 10, 64); err != nil {
			return 0, 0, usageError("-t argument must be a long value")
		}
	}
	switch {
	case hasT && e:
		return 0, 0, usageError("TTLs cannot be used with Ephemeral znodes")
	case hasT && ctr:
		return 0, 0, usageError("TTLs cannot be used with Container znodes")
	case hasT && (ttl <= 0 || ttl > mwzookeeper.MaxTTL):
		return 0, 0, usageError(fmt.Sprintf("ttl must be positive and cannot be larger than: %d", mwzookeeper.MaxTTL))
	case ctr:
		return mwzookeeper.Container, 0, nil
	case hasT && sq:
		return mwzookeeper.PersistentSeqTTL, ttl, nil
	case hasT:
		return mwzookeeper.PersistentTTL, ttl, nil
	}
	mode := mwzookeeper.Persistent
	if sq {
		mode |= mwzookeeper.PersistentSequential
	}
	if e {
		mode |= mwzookeeper.Ephemeral
	}
	return mode, 0, nil
}

func (s *Shell) cmdGetACL(c *call) error {
	acl, st, err := s.zk.GetACL(c.args[0])
	if err != nil {
		return err
	}
	printACL(c.w, acl)
	if c.has("-s") {
		printStat(c.w, st)
	}
	return nil
}

func (s *Shell) cmdSetACL(c *call) error {
	v, err := c.version()
	if err != nil {
		return err
	}
	acl := parseACL(c.args[1], s.opts.Err)
	if len(acl) == 0 {
		return errEmptyACL
	}
	if c.has("-R") {
		// zkCli visits the tree depth first, the node before its
		// children, with the same version for every node.
		return s.visit(c.args[0], func(p string) error { _, err := s.zk.SetACL(p, acl, v); return err })
	}
	st, err := s.zk.SetACL(c.args[0], acl, v)
	if err != nil {
		return err
	}
	if c.has("-s") {
		printStat(c.w, st)
	}
	return nil
}

// visit calls fn on path and then on every node below it, depth first.
func (s *Shell) visit(path string, fn func(string) error) error {
	if err := fn(path); err != nil {
		return err
	}
	children, err := s.zk.GetChildren(path)
	if err != nil {
		return err
	}
	for _, ch := range children {
		if err := s.visit(mwzookeeper.Join(path, ch), fn); err != nil {
			return err
		}
	}
	return nil
}

func (s *Shell) cmdAddAuth(c *call) error {
	var auth []byte
	if len(c.args) > 1 {
		auth = []byte(c.args[1])
	}
	return s.zk.AddAuth(c.args[0], auth)
}

func (s *Shell) cmdWhoAmI(c *call) error {
	who, err := s.zk.WhoAmI()
	if err != nil {
		return err
	}
	fmt.Fprintln(c.w, "Auth scheme: User")
	for _, id := range who {
		fmt.Fprintf(c.w, "%s: %s\n", id.Scheme, id.User)
	}
	return nil
}

func (s *Shell) cmdGetEphemerals(c *call) error {
	prefix := "/"
	if len(c.args) > 0 {
		prefix = c.args[0]
	}
	paths, err := s.zk.GetEphemerals(prefix)
	if err != nil {
		return err
	}
	printChildren(c.w, paths)
	return nil
}

func (s *Shell) cmdGetAllChildrenNumber(c *call) error {
	n, err := s.zk.GetAllChildrenNumber(c.args[0])
	if err != nil {
		return err
	}
	fmt.Fprintln(c.w, n)
	return nil
}

func (s *Shell) cmdAddWatch(c *call) error {
	mode := mwzookeeper.WatchPersistentRecursive
	if m, ok := c.flags["-m"]; ok {
		switch m {
		case "PERSISTENT":
			mode = mwzookeeper.WatchPersistent
		case "PERSISTENT_RECURSIVE":
		default:
			return usageError(commands["addWatch"].usage)
		}
	}
	path := c.args[0]
	// Left again, the server's watch takes the new mode: the new
	// registration prints from now on (it has that mode client-side too)
	// and the older ones of the path fall silent.
	s.mu.Lock()
	prev := s.persistent[path]
	if s.persistent == nil {
		s.persistent = map[string]uint64{}
	}
	s.persistGen++
	gen := s.persistGen
	s.persistent[path] = gen
	s.mu.Unlock()
	current := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.persistent[path] == gen
	}
	forget := func(restore uint64) {
		s.mu.Lock()
		if s.persistent[path] == gen {
			if restore != 0 {
				s.persistent[path] = restore
			} else {
				delete(s.persistent, path)
			}
		}
		s.mu.Unlock()
	}
	err := s.zk.AddWatch(path, mode, func(ev client.Event) {
		if !current() {
			return
		}
		if ev.Err != nil || ev.Type == client.EventPersistentWatchRemoved {
			forget(0)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if ev.Seq == 0 { // an end or ...WatchRemoved: no notification to order
			s.printEvent(ev)
			return
		}
		// One-shot events of earlier notifications may still wait in
		// their channels or s.taken: printed now, this one would jump
		// ahead of them. printTaken prints all in the handle's order.
		s.taken = append(s.taken, ev)
		s.printTaken()
	})
	if err != nil {
		forget(prev) // the earlier watch, if any, still prints
	}
	return err
}

func (s *Shell) cmdRemoveWatches(c *call) error {
	which := mwzookeeper.WatcherAny
	switch {
	case c.has("-c"):
		which = mwzookeeper.WatcherChildren
	case c.has("-d"):
		which = mwzookeeper.WatcherData
	}
	return s.zk.RemoveWatches(c.args[0], which)
}

// errEmptyACL is how zkCli reports an ACL that parsed to nothing: the
// Java client refuses it before sending, with no path to name.
var errEmptyACL = usageError("Acl is not valid : null")

// eventName is Watcher.Event.EventType's name, the removal events too.
func eventName(t mwzookeeper.EventType) string {
	switch t {
	case client.EventDataWatchRemoved:
		return "DataWatchRemoved"
	case client.EventChildWatchRemoved:
		return "ChildWatchRemoved"
	case client.EventPersistentWatchRemoved:
		return "PersistentWatchRemoved"
	}
	return t.String()
}
