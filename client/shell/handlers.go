package shell

import (
	"errors"
	"fmt"
	"sort"

	"zablab/client"
	"zablab/mwzookeeper"
)

func (s *Shell) cmdConnect(c *call) error {
	s.servers = c.args[0]
	return s.Connect()
}

func (s *Shell) cmdClose(*call) error {
	s.Close()
	return nil
}

func (s *Shell) cmdGet(c *call) error {
	var st mwzookeeper.MWStat
	var data []byte
	var err error
	if c.has("-w") {
		var ch = (<-chan client.Event)(nil)
		data, ch, err = s.zk.GetDataW(c.args[0], &st)
		if err == nil {
			s.watch("data "+c.args[0], ch)
		}
	} else {
		data, err = s.zk.GetData(c.args[0], &st)
	}
	if err != nil {
		return err
	}
	printData(c.w, data)
	if c.has("-s") {
		printStat(c.w, st)
	}
	return nil
}

func (s *Shell) cmdSet(c *call) error {
	v, err := c.version()
	if err != nil {
		return err
	}
	st, err := s.zk.SetData(c.args[0], []byte(c.args[1]), v)
	if err != nil {
		return err
	}
	if c.has("-s") {
		printStat(c.w, st)
	}
	return nil
}

func (s *Shell) cmdStat(c *call) error {
	path := c.args[0]
	if c.has("-w") {
		ok, st, ch, err := s.zk.ExistsW(path)
		if err != nil {
			return err
		}
		s.watch("data "+path, ch) // exists leaves a data watch, as getData
		if !ok {
			return fmt.Errorf("stat %s: %w", path, mwzookeeper.ErrNoNode)
		}
		printStat(c.w, st)
		return nil
	}
	ok, st, err := s.zk.Exists(path)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("stat %s: %w", path, mwzookeeper.ErrNoNode)
	}
	printStat(c.w, st)
	return nil
}

func (s *Shell) cmdLs(c *call) error {
	path := c.args[0]
	if c.has("-R") {
		return s.lsRecursive(c, path)
	}
	var children []string
	var st mwzookeeper.MWStat
	var err error
	if c.has("-w") {
		var ch = (<-chan client.Event)(nil)
		children, st, ch, err = s.zk.GetChildrenW(path)
		if err == nil {
			s.watch("child "+path, ch)
		}
	} else {
		children, st, err = s.zk.GetChildrenStat(path)
	}
	if err != nil {
		return err
	}
	printChildren(c.w, children)
	if c.has("-s") {
		printStat(c.w, st)
	}
	return nil
}

// lsRecursive prints path and every node under it, one path a line,
// breadth first as zkCli's ls -R does.
func (s *Shell) lsRecursive(c *call, root string) error {
	queue := []string{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		fmt.Fprintln(c.w, p)
		children, err := s.zk.GetChildren(p)
		if errors.Is(err, mwzookeeper.ErrNoNode) && p != root {
			continue // deleted meanwhile
		}
		if err != nil {
			return err
		}
		for _, ch := range children {
			queue = append(queue, mwzookeeper.Join(p, ch))
		}
	}
	return nil
}

func (s *Shell) cmdDelete(c *call) error {
	v, err := c.version()
	if err != nil {
		return err
	}
	return s.zk.Delete(c.args[0], v)
}

// cmdDeleteAll deletes a subtree, children first. Nodes that vanish
// meanwhile are fine; a node that gains a child meanwhile fails with
// "Node not empty".
func (s *Shell) cmdDeleteAll(c *call) error {
	return s.deleteAll(c.args[0])
}

func (s *Shell) deleteAll(path string) error {
	children, err := s.zk.GetChildren(path)
	if err != nil {
		return err
	}
	sort.Strings(children)
	for _, ch := range children {
		if err := s.deleteAll(mwzookeeper.Join(path, ch)); err != nil && !errors.Is(err, mwzookeeper.ErrNoNode) {
			return err
		}
	}
	return s.zk.Delete(path, -1)
}

func (s *Shell) cmdSync(c *call) error {
	if err := s.zk.Sync(c.args[0]); err != nil {
		return err
	}
	fmt.Fprintln(c.w, "Sync is OK")
	return nil
}

func (s *Shell) cmdPrintWatches(c *call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(c.args) == 0 {
		state := "off"
		if s.printWatches {
			state = "on"
		}
		fmt.Fprintf(c.w, "printwatches is %s\n", state)
		return nil
	}
	switch c.args[0] {
	case "on":
		s.printWatches = true
	case "off":
		s.printWatches = false
	default:
		return usageError(commands["printwatches"].usage)
	}
	return nil
}

func (s *Shell) cmdHelp(c *call) error {
	fmt.Fprint(c.w, usageText())
	return nil
}
