package meshperf

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.k6.io/k6/metrics"
)

// The pool grows like vegeta's from initialWorkers up to its bound, refuses an arrival only when
// every worker is busy at the bound (the caller counts it dropped), and close waits for the
// requests in flight.
func TestPoolGrowsToItsBoundThenRefuses(t *testing.T) {
	release := make(chan struct{})
	var busy, done atomic.Int64
	send := func(*metrics.TagsAndMeta) {
		busy.Add(1)
		<-release
		done.Add(1)
	}
	const bound = initialWorkers + 5
	p := newPool(send, bound)
	if p.started != initialWorkers {
		t.Fatalf("started with %d workers, want %d", p.started, initialWorkers)
	}
	for i := 0; i < bound; i++ {
		if !p.offer(arrival{}) {
			t.Fatalf("arrival %d refused below the bound", i)
		}
	}
	if p.started != bound {
		t.Fatalf("%d workers after %d arrivals in flight, want %d", p.started, bound, bound)
	}
	for deadline := time.Now().Add(5 * time.Second); busy.Load() < bound && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if p.offer(arrival{}) {
		t.Fatal("an arrival was accepted with every worker busy at the bound")
	}
	release <- struct{}{} // one worker comes free
	for deadline := time.Now().Add(5 * time.Second); ; {
		if p.offer(arrival{}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a free worker never took an arrival")
		}
		time.Sleep(time.Millisecond)
	}
	var closed sync.WaitGroup
	closed.Add(1)
	go func() {
		defer closed.Done()
		p.close()
	}()
	close(release)
	closed.Wait()
	if got := done.Load(); got != bound+1 {
		t.Fatalf("close returned after %d requests, want all %d", got, bound+1)
	}
}

func TestABoundBelowTheInitialWorkers(t *testing.T) {
	p := newPool(func(*metrics.TagsAndMeta) {}, 3)
	if p.started != 3 {
		t.Fatalf("%d workers for a bound of 3", p.started)
	}
	p.close()
}
