package shell

import (
	"errors"
	"fmt"
	"slices"

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

// lsRecursive prints path and every node under it, one path a line, as
// zkCli's ls -R (ZKUtil.visitSubTreeDFS): a node's children, sorted, then
// each child's subtree. A node deleted meanwhile is skipped; any other
// error ends the listing where it is, naming the node.
func (s *Shell) lsRecursive(c *call, root string) error {
	children, err := s.zk.GetChildren(root)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.w, root)
	return s.lsChildren(c, root, children)
}

func (s *Shell) lsChildren(c *call, p string, children []string) error {
	slices.Sort(children)
	for _, ch := range children {
		fmt.Fprintln(c.w, mwzookeeper.Join(p, ch))
	}
	for _, ch := range children {
		cp := mwzookeeper.Join(p, ch)
		kids, err := s.zk.GetChildren(cp)
		if errors.Is(err, mwzookeeper.ErrNoNode) {
			continue
		}
		if err != nil {
			return &atPath{cp, err}
		}
		if err := s.lsChildren(c, cp, kids); err != nil {
			return err
		}
	}
	return nil
}

// subtree lists root and every node below it, breadth first, as zkCli's
// ZKUtil.listSubTreeBFS; a node deleted meanwhile is left out, and an
// error names the node it is about (atPath).
func (s *Shell) subtree(root string) ([]string, error) {
	tree := []string{root}
	for i := 0; i < len(tree); i++ {
		children, err := s.zk.GetChildren(tree[i])
		if errors.Is(err, mwzookeeper.ErrNoNode) && i > 0 {
			continue
		}
		if err != nil {
			return nil, &atPath{tree[i], err}
		}
		for _, ch := range children {
			tree = append(tree, mwzookeeper.Join(tree[i], ch))
		}
	}
	return tree, nil
}

// atPath is an error about another node than the command's argument:
// zkCli names that node.
type atPath struct {
	path string
	err  error
}

func (e *atPath) Error() string { return e.path + ": " + e.err.Error() }
func (e *atPath) Unwrap() error { return e.err }

func (s *Shell) cmdDelete(c *call) error {
	v, err := c.version()
	if err != nil {
		return err
	}
	return s.zk.Delete(c.args[0], v)
}

// cmdDeleteAll deletes a subtree as zkCli's ZKUtil.deleteRecursive: the
// whole subtree listed first, then deleted deepest first. Nodes that
// vanish meanwhile are fine; a node that gains a child meanwhile fails
// with "Node not empty".
func (s *Shell) cmdDeleteAll(c *call) error {
	tree, err := s.subtree(c.args[0])
	if err != nil {
		return err
	}
	for i := len(tree) - 1; i >= 0; i-- {
		if err := s.zk.Delete(tree[i], -1); err != nil && !errors.Is(err, mwzookeeper.ErrNoNode) {
			return &atPath{tree[i], err}
		}
	}
	return nil
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
