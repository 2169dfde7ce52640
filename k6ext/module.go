// Package meshperf is mesh-perf's open-model pacer for k6, the JS module k6/x/meshperf.
//
// mesh-perf's built-in HTTP profiles call run() once, from one VU, for the whole repetition: the
// pacer sends every arrival of the warm-up and the measured scenario at its intended time from
// Go, each through k6's own HTTP client (httpext.MakeRequest), so k6 records http_req_* as for
// http.get, with the phase's scenario tag and the timeline's mp_bucket tag; thresholds,
// sub-metrics, outputs, the summary and k6-operator work as before. What it leaves out is what
// k6's arrival-rate executor does per request besides the request: a JS iteration (a cookie jar,
// the VU's heap), the hand-off of each arrival to a VU through a channel, and a pool of VUs.
// See README.md beside this file.
package meshperf

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"go.k6.io/k6/js/modules"
	"go.k6.io/k6/metrics"
)

// Version of the pacer, printed by `k6 version` among the extensions (with the module's) and
// exported to scripts; mesh-perf pins the custom k6 by it (src/tools/pins.ts).
const Version = "0.1.0"

func init() {
	modules.Register("k6/x/meshperf", new(RootModule))
}

// RootModule is shared by every VU of the process.
type RootModule struct {
	// claimed: a process paces its share of the schedule once, whichever VU calls first (a
	// scenario with more VUs than instances must not send the share twice).
	claimed atomic.Bool
}

// ModuleInstance is one VU's view of the module.
type ModuleInstance struct {
	root    *RootModule
	vu      modules.VU
	metrics *pacerMetrics
}

// pacerMetrics are the custom metrics the pacer reports once per phase (no per-request cost).
type pacerMetrics struct {
	// lateSends counts arrivals sent more than lateAfter behind their intended time.
	lateSends *metrics.Metric
	// sendLagMax is the largest delay of a send behind its intended time in the phase.
	sendLagMax *metrics.Metric
}

var (
	_ modules.Module   = &RootModule{}
	_ modules.Instance = &ModuleInstance{}
)

// NewModuleInstance runs in each VU's init context, where the metrics registry is reachable.
func (r *RootModule) NewModuleInstance(vu modules.VU) modules.Instance {
	mi := &ModuleInstance{root: r, vu: vu}
	if env := vu.InitEnv(); env != nil && env.Registry != nil {
		mi.metrics = &pacerMetrics{
			lateSends:  env.Registry.MustNewMetric("mesh_perf_late_sends", metrics.Counter),
			sendLagMax: env.Registry.MustNewMetric("mesh_perf_send_lag_max", metrics.Gauge, metrics.Time),
		}
	}
	return mi
}

// Exports: run(paramsJSON) and the pacer's version.
func (mi *ModuleInstance) Exports() modules.Exports {
	return modules.Exports{Named: map[string]any{
		"run":     mi.run,
		"version": Version,
	}}
}

// run paces the schedule the JSON describes (runParams) and returns what it did per phase. It
// blocks the calling VU until the last response is in; only the first call in a process paces.
func (mi *ModuleInstance) run(paramsJSON string) (map[string]any, error) {
	state := mi.vu.State()
	if state == nil {
		return nil, errors.New("meshperf.run: called in the init context; call it from a scenario's function")
	}
	if mi.metrics == nil {
		return nil, errors.New("meshperf.run: the module's metrics were not registered (imported outside the init context?)")
	}
	var p runParams
	if err := json.Unmarshal([]byte(paramsJSON), &p); err != nil {
		return nil, fmt.Errorf("meshperf.run: the parameters are not the expected JSON: %w", err)
	}
	plan, err := p.plan()
	if err != nil {
		return nil, fmt.Errorf("meshperf.run: %w", err)
	}
	if !mi.root.claimed.CompareAndSwap(false, true) {
		return map[string]any{"paced": false}, nil
	}
	results, err := pace(mi.vu.Context(), state, mi.metrics, plan)
	if err != nil {
		return nil, fmt.Errorf("meshperf.run: %w", err)
	}
	out := map[string]any{"paced": true}
	for _, r := range results {
		out[r.scenario] = map[string]any{"sent": r.sent, "dropped": r.dropped, "late": r.late, "maxLagMs": metrics.D(r.maxLag), "workers": r.workers}
	}
	return out, nil
}
