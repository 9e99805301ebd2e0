package client

import "sync"

// fifo runs functions one at a time in the order they were pushed, on a
// goroutine of its own that exists only while there is work: an idle
// handle keeps no goroutine, and a closed one needs no shutdown.
type fifo struct {
	mu      sync.Mutex
	queue   []func() // guarded by mu
	running bool     // a goroutine is draining queue; guarded by mu
}

func (f *fifo) push(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue = append(f.queue, fn)
	if !f.running {
		f.running = true
		go f.drain()
	}
}

func (f *fifo) drain() {
	for {
		f.mu.Lock()
		if len(f.queue) == 0 {
			f.running = false
			f.mu.Unlock()
			return
		}
		fn := f.queue[0]
		f.queue[0] = nil
		f.queue = f.queue[1:]
		f.mu.Unlock()
		fn()
	}
}

// pipeline is the async calls' machinery: calls go out one at a time in
// call order (go-zk can only block, and two goroutines would race for the
// wire), and their callbacks run one at a time in the same order on a
// second goroutine, so a slow callback delays later callbacks but not
// later calls.
type pipeline struct {
	calls     fifo
	callbacks fifo

	mu        sync.Mutex
	answered  *sync.Cond // signalled when done grows
	submitted uint64     // async calls made; guarded by mu
	done      uint64     // async calls answered, in order; guarded by mu
}

func newPipeline() *pipeline {
	p := &pipeline{}
	p.answered = sync.NewCond(&p.mu)
	return p
}

// wait blocks until every async call submitted before it was answered:
// a blocking call then goes out after them (call order across kinds).
func (p *pipeline) wait() {
	p.mu.Lock()
	defer p.mu.Unlock()
	target := p.submitted
	for p.done < target {
		p.answered.Wait()
	}
}

// submit runs call in order; the function it returns (the callback with
// its results bound) runs in order after every earlier callback.
func (p *pipeline) submit(call func() func()) {
	p.mu.Lock()
	p.submitted++
	p.calls.push(func() {
		cb := call()
		p.mu.Lock()
		p.done++
		p.answered.Broadcast()
		p.mu.Unlock()
		p.callbacks.push(cb)
	})
	p.mu.Unlock()
}
