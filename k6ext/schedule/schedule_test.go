package schedule

import (
	"testing"
	"time"
)

func TestDueAndCountMatchK6Spacing(t *testing.T) {
	p := Phase{Scenario: "measure", Duration: 10 * time.Second}
	for _, rate := range []float64{0.5, 3, 1000, 2000, 5000} {
		n := int64(0)
		for _, in := p.Due(n, rate); in; _, in = p.Due(n, rate) {
			n++
		}
		want := int64(10 * rate)
		if n != want {
			t.Errorf("rate %v: %d arrivals in 10 s, want %d", rate, n, want)
		}
		last, in := p.Due(n-1, rate)
		if !in || last >= p.Duration {
			t.Errorf("rate %v: arrival %d due at %v is not inside the phase", rate, n-1, last)
		}
		if _, in := p.Due(n, rate); in {
			t.Errorf("rate %v: arrival %d is inside the phase", rate, n)
		}
	}
	if d, _ := p.Due(3, 2000); d != 1500*time.Microsecond {
		t.Errorf("arrival 3 at 2,000 rps due at %v, want 1.5ms", d)
	}
}

func TestStripesOfASegmentSequenceCoverTheScheduleOnce(t *testing.T) {
	// k6's striped offsets for 0:1/3, 1/3:2/3, 2/3:1 of the sequence 0,1/3,2/3,1 (lcd 3).
	stripes := []*Stripe{NewStripe(0, []int64{3}), NewStripe(1, []int64{3}), NewStripe(2, []int64{3})}
	seen := map[int64]int{}
	for _, s := range stripes {
		for k := 0; k < 100; k++ {
			seen[s.Next()]++
		}
	}
	for j := int64(0); j < 300; j++ {
		if seen[j] != 1 {
			t.Fatalf("arrival %d owned %d times, want once", j, seen[j])
		}
	}
	// Uneven offsets cycle: k6 gives 0:1/2 of 0,1/4,1/2,1 the indices 0,1 then 4,5, ….
	s := NewStripe(0, []int64{1, 3})
	got := []int64{s.Next(), s.Next(), s.Next(), s.Next(), s.Next()}
	want := []int64{0, 1, 4, 5, 8}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("uneven stripe %v, want %v", got, want)
		}
	}
}

func TestBucketClampsToTheTimeline(t *testing.T) {
	p := Phase{Scenario: "measure", Duration: 10 * time.Second, Buckets: 10, BucketWidth: time.Second}
	cases := map[time.Duration]int{0: 0, 999 * time.Millisecond: 0, time.Second: 1, 9999 * time.Millisecond: 9, 12 * time.Second: 9}
	for due, want := range cases {
		if got := p.Bucket(due); got != want {
			t.Errorf("bucket of %v = %d, want %d", due, got, want)
		}
	}
	if got := (Phase{Scenario: "warmup", Duration: time.Second}).Bucket(0); got != -1 {
		t.Errorf("a phase without a timeline gave bucket %d, want -1", got)
	}
}

func TestValidateNamesTheField(t *testing.T) {
	bad := []struct {
		phase Phase
		field string
	}{
		{Phase{Duration: time.Second}, "phases[0].scenario"},
		{Phase{Scenario: "m", Start: -1, Duration: time.Second}, "phases[0].startMs"},
		{Phase{Scenario: "m"}, "phases[0].durationMs"},
		{Phase{Scenario: "m", Duration: time.Second, Buckets: 2}, "phases[0].bucketMs"},
	}
	for _, c := range bad {
		err := c.phase.Validate(0)
		if err == nil || len(err.Error()) < len(c.field) || err.Error()[:len(c.field)] != c.field {
			t.Errorf("%+v: error %v, want one naming %s", c.phase, err, c.field)
		}
	}
	if err := (Phase{Scenario: "measure", Duration: time.Second, Buckets: 1, BucketWidth: time.Second}).Validate(0); err != nil {
		t.Errorf("a good phase: %v", err)
	}
}
