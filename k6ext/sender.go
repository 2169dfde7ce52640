package meshperf

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"go.k6.io/k6/lib"
	"go.k6.io/k6/lib/netext/httpext"
	"go.k6.io/k6/metrics"
)

// sender makes one request the way k6's http.get/http.post builds it from a script
// (js/modules/k6/http/request.go, parseRequest) with mesh-perf's parameters: the options'
// user agent, redirects, response bodies discarded or not, k6's default expected statuses
// (200–399, which set expected_response and http_req_failed), and no cookie jar (an arrival-rate
// iteration starts with an empty jar, so no request of ours ever sent a cookie).
type sender struct {
	ctx          context.Context
	state        *lib.State
	url          httpext.URL
	method       string
	body         []byte
	header       http.Header
	timeout      time.Duration
	responseType httpext.ResponseType
}

func newSender(ctx context.Context, state *lib.State, p plan) *sender {
	header := p.header.Clone()
	header.Set("User-Agent", state.Options.UserAgent.String)
	responseType := httpext.ResponseTypeText
	if state.Options.DiscardResponseBodies.Bool {
		responseType = httpext.ResponseTypeNone
	}
	return &sender{ctx: ctx, state: state, url: p.url, method: p.method, body: p.body, header: header, timeout: p.timeout, responseType: responseType}
}

func expectedStatus(status int) bool { return status >= 200 && status <= 399 }

// send makes the request and reports it as an iteration (iteration_duration from when a worker
// took the arrival to the response's end, iterations), as k6 does for each iteration of a script.
func (s *sender) send(tags *metrics.TagsAndMeta) {
	started := time.Now()
	target := *s.url.GetURL() // the client must not share one *url.URL between requests
	preq := &httpext.ParsedHTTPRequest{
		URL:              &s.url,
		Req:              &http.Request{Method: s.method, URL: &target, Header: s.header.Clone()},
		Timeout:          s.timeout,
		ResponseType:     s.responseType,
		ResponseCallback: expectedStatus,
		Redirects:        s.state.Options.MaxRedirects,
		TagsAndMeta:      tags.Clone(),
	}
	if s.body != nil {
		preq.Body = bytes.NewBuffer(s.body) // read, never written (no compression is set)
	}
	// Errors are in the response (error, error_code) and in k6's metrics, as for http.get.
	_, _ = httpext.MakeRequest(s.ctx, s.state, preq)
	ended := time.Now()
	builtins := s.state.BuiltinMetrics
	metrics.PushIfNotDone(s.ctx, s.state.Samples, metrics.Samples{
		{TimeSeries: metrics.TimeSeries{Metric: builtins.IterationDuration, Tags: tags.Tags}, Time: ended, Metadata: tags.Metadata, Value: metrics.D(ended.Sub(started))},
		{TimeSeries: metrics.TimeSeries{Metric: builtins.Iterations, Tags: tags.Tags}, Time: ended, Metadata: tags.Metadata, Value: 1},
	})
}
