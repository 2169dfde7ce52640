package meshperf

import (
	"fmt"
	"net/http"
	"time"

	"go.k6.io/k6/lib/netext/httpext"

	"github.com/org/mesh-perf-action/k6ext/schedule"
)

// runParams is the JSON mesh-perf's script hands to run(): the request, the rate of the whole
// schedule (every instance together) and its phases. Rendered by src/load/pacer-params.ts.
type runParams struct {
	URL       string            `json:"url"`
	Method    string            `json:"method"`
	Body      *string           `json:"body"`
	Headers   map[string]string `json:"headers"`
	TimeoutMs float64           `json:"timeoutMs"`
	// Rate in arrivals per second, of the whole schedule.
	Rate float64 `json:"rate"`
	// MaxWorkers bounds the requests in flight, of the whole schedule (each instance gets its
	// segment's share, as k6 splits a VU pool; src/load/vus.ts pacerWorkers sizes it): the pool
	// grows up to it as it needs, and an arrival that finds every worker busy at the bound is
	// dropped (dropped_iterations).
	MaxWorkers int64         `json:"maxWorkers"`
	Phases     []phaseParams `json:"phases"`
}

type phaseParams struct {
	Scenario   string  `json:"scenario"`
	StartMs    float64 `json:"startMs"`
	DurationMs float64 `json:"durationMs"`
	Buckets    int     `json:"buckets"`
	BucketMs   float64 `json:"bucketMs"`
}

// plan is runParams checked and in Go's units.
type plan struct {
	url        httpext.URL
	method     string
	body       []byte
	header     http.Header
	timeout    time.Duration
	rate       float64
	maxWorkers int64
	phases     []schedule.Phase
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func (p runParams) plan() (plan, error) {
	switch {
	case p.URL == "":
		return plan{}, fmt.Errorf("url: empty; expected the target URL")
	case p.Method != http.MethodGet && p.Method != http.MethodPost:
		return plan{}, fmt.Errorf("method: %q; expected GET or POST", p.Method)
	case !(p.Rate > 0):
		return plan{}, fmt.Errorf("rate: %v; expected arrivals per second > 0", p.Rate)
	case !(p.TimeoutMs > 0):
		return plan{}, fmt.Errorf("timeoutMs: %v; expected > 0", p.TimeoutMs)
	case p.MaxWorkers < 1:
		return plan{}, fmt.Errorf("maxWorkers: %d; expected ≥ 1", p.MaxWorkers)
	case len(p.Phases) == 0:
		return plan{}, fmt.Errorf("phases: none; expected at least the measured one")
	}
	target, err := httpext.NewURL(p.URL, p.URL)
	if err != nil || target.GetURL().Host == "" {
		return plan{}, fmt.Errorf("url: %q; expected an absolute http(s) URL", p.URL)
	}
	out := plan{url: target, method: p.Method, header: http.Header{}, timeout: ms(p.TimeoutMs), rate: p.Rate, maxWorkers: p.MaxWorkers}
	if p.Body != nil {
		out.body = []byte(*p.Body)
	}
	for name, value := range p.Headers {
		out.header.Set(name, value)
	}
	var end time.Duration
	for i, ph := range p.Phases {
		phase := schedule.Phase{
			Scenario:    ph.Scenario,
			Start:       ms(ph.StartMs),
			Duration:    ms(ph.DurationMs),
			Buckets:     ph.Buckets,
			BucketWidth: ms(ph.BucketMs),
		}
		if err := phase.Validate(i); err != nil {
			return plan{}, err
		}
		if phase.Start < end {
			return plan{}, fmt.Errorf("phases[%d].startMs: %v; expected ≥ %v, the end of the phase before", i, ph.StartMs, float64(end)/float64(time.Millisecond))
		}
		end = phase.Start + phase.Duration
		out.phases = append(out.phases, phase)
	}
	return out, nil
}
