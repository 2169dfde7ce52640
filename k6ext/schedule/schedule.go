// Package schedule is the pacer's arithmetic, apart from k6 so it can be tested alone: which
// arrivals of the whole open-model schedule one k6 instance sends, when each is due, and the
// timeline bucket it falls in.
//
// The whole schedule is arrival j at j / rate seconds from a phase's start, for every j whose
// time is before the phase's end, exactly as k6's constant-arrival-rate executor spaces its
// iterations (lib/executor/constant_arrival_rate.go). Several instances (load.generators,
// k6-operator's parallelism) split it with k6's execution segments: an instance owns the
// arrivals k6 itself would give its segment, the striped offsets of its execution tuple, so the
// instances' arrivals are disjoint, add up to the whole schedule and interleave in time.
package schedule

import (
	"fmt"
	"math"
	"time"
)

// Stripe walks the global arrival indices one instance owns: start, then each offset in turn,
// cycling (lib.ExecutionTuple.GetStripedOffsets). One instance alone owns every index.
type Stripe struct {
	next    int64
	offsets []int64
	i       int
}

// NewStripe starts a walk at start; offsets must not be empty (k6's never are).
func NewStripe(start int64, offsets []int64) *Stripe {
	if len(offsets) == 0 {
		offsets = []int64{1}
	}
	return &Stripe{next: start, offsets: offsets}
}

// Next returns the next global arrival index this instance owns.
func (s *Stripe) Next() int64 {
	j := s.next
	s.next += s.offsets[s.i%len(s.offsets)]
	s.i++
	return j
}

// Phase is one stretch of the schedule: the warm-up or the measured scenario, timed from the
// start of the pacer's scenario.
type Phase struct {
	// Scenario is the value of the `scenario` tag every sample of the phase carries.
	Scenario string
	Start    time.Duration
	Duration time.Duration
	// Buckets timeline buckets of BucketWidth each (the mp_bucket tag); 0 buckets: no tag.
	Buckets     int
	BucketWidth time.Duration
}

// Due is when global arrival j is due, from the phase's start, and whether it is inside the phase.
func (p Phase) Due(j int64, rate float64) (time.Duration, bool) {
	due := time.Duration(math.Round(float64(j) * float64(time.Second) / rate))
	return due, due < p.Duration
}

// Bucket is the timeline bucket of an arrival due at `due` from the phase's start; the last
// bucket takes what is beyond it, and -1 means the phase has no timeline.
func (p Phase) Bucket(due time.Duration) int {
	if p.Buckets <= 0 || p.BucketWidth <= 0 {
		return -1
	}
	b := int(due / p.BucketWidth)
	if b >= p.Buckets {
		b = p.Buckets - 1
	}
	if b < 0 {
		b = 0
	}
	return b
}

// Validate says what is wrong with a phase, naming the field and the value.
func (p Phase) Validate(i int) error {
	switch {
	case p.Scenario == "":
		return fmt.Errorf("phases[%d].scenario: empty; expected the scenario tag of its samples, e.g. \"measure\"", i)
	case p.Start < 0:
		return fmt.Errorf("phases[%d].startMs: %v; expected ≥ 0", i, p.Start)
	case p.Duration <= 0:
		return fmt.Errorf("phases[%d].durationMs: %v; expected > 0", i, p.Duration)
	case p.Buckets < 0:
		return fmt.Errorf("phases[%d].buckets: %d; expected ≥ 0", i, p.Buckets)
	case p.Buckets > 0 && p.BucketWidth <= 0:
		return fmt.Errorf("phases[%d].bucketMs: %v with %d buckets; expected > 0", i, p.BucketWidth, p.Buckets)
	}
	return nil
}
