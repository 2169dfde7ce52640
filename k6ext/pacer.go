package meshperf

import (
	"context"
	"errors"
	"strconv"
	"time"

	"go.k6.io/k6/lib"
	"go.k6.io/k6/lib/netext"
	"go.k6.io/k6/metrics"

	"github.com/org/mesh-perf-action/k6ext/schedule"
)

// lateAfter: a send further than this behind its intended time is counted late. Go's timers
// on an idle process wake up to about a millisecond late (the network poller sleeps in whole
// milliseconds), so a lag below it is the clock's, not the machine's.
const lateAfter = time.Millisecond

type phaseResult struct {
	scenario            string
	sent, dropped, late int64
	maxLag              time.Duration
	workers             int64
}

// arrival is one request to send: its tags (scenario, mp_bucket) and when it was due.
type arrival struct {
	tags *metrics.TagsAndMeta
}

// pace sends this instance's share of every phase, then waits for the last responses.
func pace(ctx context.Context, state *lib.State, pm *pacerMetrics, p plan) ([]phaseResult, error) {
	es := lib.GetExecutionState(ctx)
	scenario := lib.GetScenarioState(ctx)
	if es == nil || scenario == nil || es.ExecutionTuple == nil {
		return nil, errors.New("no execution or scenario state: run() must be called from a scenario's iteration")
	}
	start, offsets, _ := es.ExecutionTuple.GetStripedOffsets()
	maxWorkers := es.ExecutionTuple.ScaleInt64(p.maxWorkers)
	if maxWorkers < 1 {
		maxWorkers = 1
	}
	pool := newPool(newSender(ctx, state, p).send, maxWorkers)
	base := state.Tags.GetCurrentValues()
	var results []phaseResult
	var previous metrics.TagsAndMeta
	for i, phase := range p.phases {
		tags := phaseTags(base, phase)
		if i > 0 {
			// The bytes k6's dialer counted since the last phase began are that phase's (k6 itself
			// reports them at the end of each iteration), once its last requests are done: at the
			// end of the handover between warm-up and measured scenario, as this phase starts.
			if !sleepUntil(ctx, scenario.StartTime.Add(phase.Start)) {
				break
			}
			pushIO(ctx, state, previous, time.Now())
		}
		r := pacePhase(ctx, state, pm, pool, scenario.StartTime, phase, tags, p.rate, schedule.NewStripe(start, offsets))
		r.workers = pool.started
		results = append(results, r)
		previous = tags.phase
		if ctx.Err() != nil {
			break
		}
	}
	pool.close()
	pushIO(ctx, state, previous, time.Now())
	return results, nil
}

// sleepUntil waits for a time; false when the context ended first.
func sleepUntil(ctx context.Context, at time.Time) bool {
	wait := time.Until(at)
	if wait <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

type taggedPhase struct {
	phase   metrics.TagsAndMeta
	buckets []metrics.TagsAndMeta
}

// phaseTags: the VU's tags with the phase's scenario, and one set per timeline bucket. Built once.
func phaseTags(base metrics.TagsAndMeta, phase schedule.Phase) taggedPhase {
	t := taggedPhase{phase: base.Clone()}
	t.phase.Tags = base.Tags.With("scenario", phase.Scenario)
	for b := 0; b < phase.Buckets; b++ {
		bucket := t.phase.Clone()
		bucket.Tags = t.phase.Tags.With("mp_bucket", strconv.Itoa(b))
		t.buckets = append(t.buckets, bucket)
	}
	return t
}

func pacePhase(
	ctx context.Context, state *lib.State, pm *pacerMetrics, pool *pool, scenarioStart time.Time,
	phase schedule.Phase, tags taggedPhase, rate float64, stripe *schedule.Stripe,
) phaseResult {
	r := phaseResult{scenario: phase.Scenario}
	phaseStart := scenarioStart.Add(phase.Start)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		due, inside := phase.Due(stripe.Next(), rate)
		if !inside {
			break
		}
		at := phaseStart.Add(due)
		if wait := time.Until(at); wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return finishPhase(ctx, state, pm, tags, r)
			}
		}
		lag := time.Since(at)
		if lag > lateAfter {
			r.late++
		}
		if lag > r.maxLag {
			r.maxLag = lag
		}
		a := arrival{tags: &tags.phase}
		if b := phase.Bucket(due); b >= 0 {
			a.tags = &tags.buckets[b]
		}
		if pool.offer(a) {
			r.sent++
			continue
		}
		// Every worker busy at the bound: as k6's executor does when no VU is free.
		r.dropped++
		metrics.PushIfNotDone(ctx, state.Samples, metrics.Sample{
			TimeSeries: metrics.TimeSeries{Metric: state.BuiltinMetrics.DroppedIterations, Tags: tags.phase.Tags},
			Time:       time.Now(),
			Metadata:   tags.phase.Metadata,
			Value:      1,
		})
	}
	return finishPhase(ctx, state, pm, tags, r)
}

// finishPhase reports the phase's late sends and largest lag, once.
func finishPhase(ctx context.Context, state *lib.State, pm *pacerMetrics, tags taggedPhase, r phaseResult) phaseResult {
	now := time.Now()
	metrics.PushIfNotDone(ctx, state.Samples, metrics.Samples{
		{TimeSeries: metrics.TimeSeries{Metric: pm.lateSends, Tags: tags.phase.Tags}, Time: now, Metadata: tags.phase.Metadata, Value: float64(r.late)},
		{TimeSeries: metrics.TimeSeries{Metric: pm.sendLagMax, Tags: tags.phase.Tags}, Time: now, Metadata: tags.phase.Metadata, Value: metrics.D(r.maxLag)},
	})
	return r
}

// pushIO reports the bytes k6's dialer counted since the last report (data_sent, data_received).
func pushIO(ctx context.Context, state *lib.State, tags metrics.TagsAndMeta, at time.Time) {
	if dialer, ok := state.Dialer.(*netext.Dialer); ok && tags.Tags != nil {
		metrics.PushIfNotDone(ctx, state.Samples, dialer.IOSamples(at, tags, state.BuiltinMetrics))
	}
}
