package shell

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"zablab/client"
	"zablab/mwzookeeper"
)

// Options configure a Shell. The zero value writes nowhere; mwzk-cli sets
// Out and Err to the terminal.
type Options struct {
	Out, Err       io.Writer
	SessionTimeout time.Duration // default 30s, zkCli's
	ConnectTimeout time.Duration // default 10s
	// SessionEvents prints a WATCHER:: block for every change of the
	// session's state (connected, disconnected, ...), as zkCli does.
	// mwzk-cli turns it on except for a single command given as arguments,
	// whose output a script reads.
	SessionEvents bool
	Logger        logrus.FieldLogger
}

// ErrFailed is what Run returns when at least one command failed.
var ErrFailed = errors.New("shell: a command failed")

// Shell is one zkCli-like session: a connection string, at most one
// handle, and the printwatches switch.
type Shell struct {
	opts Options

	mu           sync.Mutex // orders all output: watch goroutines print too
	printWatches bool       // guarded by mu
	// armed are the one-shot watches ("data /a", "child /a") and
	// persistent are the paths of persistent watches that print, guarded
	// by mu: zkCli's one default watcher prints an event once however
	// often it was left, and so does this shell.
	armed map[string]*oneShot
	// taken are one-shot events taken from their channels and not yet
	// printed, guarded by mu; flushing says Exec is collecting them
	// (flushEvents), so that nothing prints them out of order meanwhile.
	taken    []client.Event
	flushing bool
	// held are the done channels of replaced watches whose goroutine had
	// taken its event but not yet handed it over, guarded by mu: they
	// count as busy (claimAll) until they are done.
	held       []<-chan struct{}
	persistent map[string]uint64 // path: the generation (persistGen) of the registration that prints
	// printed are the Seqs of notifications printed, guarded by mu: the
	// events of one notification (watches of several kinds on a path)
	// print once, as zkCli's one default watcher sees them once.
	printed    map[uint64]bool
	topSeq     uint64 // the highest Seq in printed
	persistGen uint64
	servers    string
	zk         *client.MWZooKeeper
	count      int
	// beforeEventWait, if set (by tests only), runs on a watch's
	// goroutine before it waits for the event: a test holds it back to
	// check that Exec prints the event without it.
	beforeEventWait func()
}

// oneShot is a one-shot watch the shell prints: ch delivers its event;
// done is closed once the watch's goroutine is over, the event printed
// by it or taken by the shell (claim).
type oneShot struct {
	ch   <-chan client.Event
	done chan struct{}
}

// New returns a shell for the servers in servers ("host:port,host:port").
// It does not connect yet: call Connect, or let the user type connect.
func New(servers string, o Options) *Shell {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Err == nil {
		o.Err = io.Discard
	}
	if o.SessionTimeout == 0 {
		o.SessionTimeout = 30 * time.Second
	}
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	return &Shell{opts: o, servers: servers, printWatches: true}
}

// Connect opens a session with the shell's servers, closing any earlier
// one.
func (s *Shell) Connect() error {
	s.Close()
	opts := []client.Option{client.WithConnectTimeout(s.opts.ConnectTimeout), client.WithStateCallback(s.onState),
		client.WithDialErrors(s.dialNotice())}
	if s.opts.Logger != nil {
		opts = append(opts, client.WithLogger(s.opts.Logger))
	}
	zk, err := client.Connect(strings.Split(s.servers, ","), s.opts.SessionTimeout, opts...)
	if err != nil {
		return err
	}
	s.zk = zk
	// The new handle numbers its notifications from 1 again: the Seqs the
	// old one's printed must not hide them.
	s.mu.Lock()
	s.printed, s.topSeq = nil, 0
	s.mu.Unlock()
	return nil
}

// dialNotice says that no session came yet, so a shell pointed at a
// stopped ensemble does not sit silent until the connect timeout (go-zk
// keeps trying, as zkCli does). It speaks once an address is refused a
// second time, that is once go-zk has tried every address: one server of
// several down is no news when another answers (make cli with a peer
// killed printed a refusal and then the command's output), and neither is
// one address of a name (localhost is 127.0.0.1 and ::1, and a server
// listens on one). A server that takes the connection but gives no
// session (no quorum) is not a refusal, so the note says "no session",
// not that nothing answers.
func (s *Shell) dialNotice() func(addr string, err error) {
	var mu sync.Mutex
	refused := map[string]bool{}
	said := false
	start := time.Now()
	what := "server"
	if strings.Contains(s.servers, ",") {
		what = "ensemble"
	}
	return func(addr string, err error) {
		mu.Lock()
		speak := !said && refused[addr]
		refused[addr] = true
		said = said || speak
		mu.Unlock()
		if speak {
			left := max(s.opts.ConnectTimeout-time.Since(start), 0).Round(100 * time.Millisecond)
			s.write(s.opts.Err, fmt.Sprintf("%v: no session from %s yet; trying again for up to %s (is the %s running?)\n",
				err, s.servers, left, what))
		}
	}
}

// Close ends the session, if any.
func (s *Shell) Close() {
	if s.zk != nil {
		s.zk.Close()
	}
}

// Prompt is zkCli's prompt: "[mwzk: 127.0.0.1:13181(CONNECTED) 3] ".
func (s *Shell) Prompt() string {
	where, state := s.servers, "CLOSED"
	if s.zk != nil {
		state = s.zk.State().String()
		if srv := s.zk.Server(); srv != "" {
			where = srv
		}
	}
	return fmt.Sprintf("[mwzk: %s(%s) %d] ", where, state, s.count)
}

// maxLine is the longest command line Run reads: a node's data and room
// for the command and path.
const maxLine = mwzookeeper.MaxData + 4096

// Run executes the commands read from in, one per line, until the input
// ends or a quit. With prompt set it prints the prompt before each line.
// It returns ErrFailed if any command failed.
func (s *Shell) Run(in io.Reader, prompt bool) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	failed := false
	for {
		if prompt {
			s.write(s.opts.Out, s.Prompt())
		}
		if !sc.Scan() {
			break
		}
		quit, err := s.Exec(sc.Text())
		if err != nil {
			failed = true
		}
		if quit {
			break
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("shell: reading commands: a line longer than %d bytes (a node holds at most %d bytes of data): %w",
			maxLine, mwzookeeper.MaxData, err)
	} else if err != nil {
		return fmt.Errorf("shell: reading commands: %w", err)
	}
	if failed {
		return ErrFailed
	}
	return nil
}

// Exec runs one command line, prints its output and its error message,
// and returns the error; quit says the user asked to leave.
func (s *Shell) Exec(line string) (quit bool, err error) {
	args, err := split(line)
	if err != nil {
		s.write(s.opts.Err, err.Error()+"\n")
		return false, err
	}
	if len(args) == 0 {
		return false, nil
	}
	s.count++
	var out bytes.Buffer
	quit, path, err := s.dispatch(&out, args)
	// The events the reply implies come before the output, those of
	// one-shot and persistent watches alike, in the handle's order.
	s.flushEvents()
	s.write(s.opts.Out, out.String())
	if err != nil {
		var at *atPath
		if errors.As(err, &at) {
			path = at.path
		}
		s.write(s.opts.Err, message(err, path)+"\n")
		s.lostHint(err)
	}
	return quit, err
}

// write prints text in one piece, never in the middle of a watch's block.
func (s *Shell) write(w io.Writer, text string) {
	if text == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	io.WriteString(w, text)
}

// onState prints the session's state changes as zkCli's watcher does.
func (s *Shell) onState(st client.State) {
	if !s.opts.SessionEvents {
		return
	}
	names := map[client.State]string{client.StateConnected: "SyncConnected",
		client.StateDisconnected: "Disconnected", client.StateExpired: "Expired", client.StateClosed: "Closed"}
	if name, ok := names[st]; ok {
		s.watcher(name, "None", "null")
	}
}

// watcher prints one WATCHER:: block if printwatches is on.
func (s *Shell) watcher(state, typ, path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.printWatcher(state, typ, path)
}

// printWatcher is watcher with s.mu held.
func (s *Shell) printWatcher(state, typ, path string) {
	if s.printWatches {
		fmt.Fprintf(s.opts.Out, "\nWATCHER::\n\nWatchedEvent state:%s type:%s path:%s\n", state, typ, path)
	}
}

// watch prints the event ch delivers, once, when it comes, unless a
// watch of the same kind on the same path (key) still waits: the same
// event fires both. The goroutine ends with the event or with the session
// (the handle ends every watch on Close). It prints an event that comes
// while the shell waits for input; flushEvents prints those that come
// with a reply before Exec returns. Either way events print in the order
// the handle delivered them (Event.Seq), as zkCli prints the server's.
func (s *Shell) watch(key string, ch <-chan client.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The older watch may have fired already, its goroutine not yet run:
	// then it is over (claim took its event, or its goroutine has it),
	// and ch waits for a later event.
	if old, ok := s.armed[key]; ok {
		fired, busy := s.claim(old)
		if !fired {
			return // still waiting
		}
		if busy != nil {
			s.held = append(s.held, busy)
		}
	}
	if s.armed == nil {
		s.armed = map[string]*oneShot{}
	}
	w := &oneShot{ch: ch, done: make(chan struct{})}
	s.armed[key] = w
	s.printTaken()
	hook := s.beforeEventWait
	go func() {
		defer close(w.done) // after the Unlock below: the event is in s.taken by then
		if hook != nil {
			hook()
		}
		ev, ok := <-ch
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.armed[key] == w {
			delete(s.armed, key)
		}
		if ok { // !ok: claim took it
			s.taken = append(s.taken, ev)
		}
		s.printTaken()
	}()
}

// claim says, with s.mu held, whether w has fired: an event still in w.ch
// is taken into s.taken; busy is w's done channel when its goroutine
// took the event (w.ch closed and empty) and will add it to s.taken.
func (s *Shell) claim(w *oneShot) (fired bool, busy <-chan struct{}) {
	select {
	case ev, ok := <-w.ch:
		if !ok {
			return true, w.done
		}
		s.taken = append(s.taken, ev)
		return true, nil
	default:
		return false, nil
	}
}

// claimAll claims every armed watch that has fired, with s.mu held, and
// returns the done channels of the goroutines that still hold an event.
func (s *Shell) claimAll() []<-chan struct{} {
	s.held = slices.DeleteFunc(s.held, isClosed)
	busy := slices.Clone(s.held)
	for key, w := range s.armed {
		fired, b := s.claim(w)
		if fired {
			delete(s.armed, key)
		}
		if b != nil {
			busy = append(busy, b)
		}
	}
	return busy
}

func isClosed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// printTaken prints the taken events in the handle's order, with s.mu
// held, unless Exec is collecting them or a goroutine still holds one
// (then the last to add its event prints them all).
func (s *Shell) printTaken() {
	if s.flushing || len(s.claimAll()) > 0 {
		return
	}
	slices.SortFunc(s.taken, func(a, b client.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	for _, ev := range s.taken {
		s.printEvent(ev)
	}
	s.taken = nil
}

// printEvent prints a watch's event, with s.mu held, unless it ended the
// watch without a change (Err) or another event of its notification was
// printed. Seqs more than printedSpan below the highest printed are
// forgotten: one notification's events print within a few of each other.
func (s *Shell) printEvent(ev client.Event) {
	if ev.Err != nil {
		return
	}
	if ev.Seq != 0 {
		if s.printed[ev.Seq] {
			return
		}
		if s.printed == nil {
			s.printed = map[uint64]bool{}
		}
		s.printed[ev.Seq], s.topSeq = true, max(s.topSeq, ev.Seq)
		if len(s.printed) > 2*printedSpan {
			maps.DeleteFunc(s.printed, func(seq uint64, _ bool) bool { return seq+printedSpan < s.topSeq })
		}
	}
	s.printWatcher("SyncConnected", eventName(ev.Type), ev.Path)
}

// printedSpan is how many notifications printEvent remembers at least.
const printedSpan = 4096

// flushEvents prints every one-shot watch event the handle has delivered
// so far. The handle delivers the events a reply implies (a change's
// notification, RemoveWatches' ...WatchRemoved) before the call returns,
// as the Java client queues them before it wakes the caller: so after a
// command they are printed before its output and the next prompt or a
// quit, not whenever a watch goroutine gets to run.
func (s *Shell) flushEvents() {
	s.mu.Lock()
	s.flushing = true
	for busy := s.claimAll(); len(busy) > 0; busy = s.claimAll() {
		s.mu.Unlock()
		for _, done := range busy {
			<-done // its goroutine adds its event under s.mu, so not while we hold it
		}
		s.mu.Lock()
	}
	s.flushing = false
	s.printTaken()
	s.mu.Unlock()
}

// split cuts a command line into words; single and double quotes group
// words with spaces ("create /a 'hello world'").
func split(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unbalanced quote %c in: %s", quote, line)
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// Split cuts a command line into words as the shell does (quotes group
// words; adjacent quoted pieces make one word): for callers that build
// command lines, such as mwzk-cli's one-shot mode.
func Split(line string) ([]string, error) { return split(line) }
