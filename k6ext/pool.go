package meshperf

import (
	"sync"

	"go.k6.io/k6/metrics"
)

// initialWorkers, as vegeta starts (its -workers default): the pool grows from there.
const initialWorkers = 10

// pool is a set of workers that grows like vegeta's: an arrival goes to an idle worker; when
// none is idle a new one starts, up to the bound; at the bound the arrival is refused. A worker is
// idle from the moment its request is done (it puts itself back at once, as a k6 VU returns to
// its executor's pool), so only requests in flight count against the bound.
type pool struct {
	idle    chan *worker
	workers []*worker
	send    func(tags *metrics.TagsAndMeta)
	max     int64
	started int64
	wg      sync.WaitGroup
}

type worker struct {
	in chan arrival
}

func newPool(send func(tags *metrics.TagsAndMeta), max int64) *pool {
	p := &pool{idle: make(chan *worker, max), send: send, max: max}
	for p.started < initialWorkers && p.started < max {
		p.idle <- p.start()
	}
	return p
}

// start adds a worker; the caller hands it an arrival or puts it among the idle.
func (p *pool) start() *worker {
	w := &worker{in: make(chan arrival, 1)}
	p.workers = append(p.workers, w)
	p.started++
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for a := range w.in {
			p.send(a.tags)
			p.idle <- w // never blocks: room for every worker
		}
	}()
	return w
}

// offer hands an arrival to a worker; false when every worker is busy and the pool is at its bound.
func (p *pool) offer(a arrival) bool {
	select {
	case w := <-p.idle:
		w.in <- a
		return true
	default:
	}
	if p.started >= p.max {
		return false
	}
	p.start().in <- a
	return true
}

// close lets the workers finish what they hold and waits for them.
func (p *pool) close() {
	for _, w := range p.workers {
		close(w.in)
	}
	p.wg.Wait()
}
