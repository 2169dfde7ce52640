// k6 with mesh-perf's open-model pacer (k6/x/meshperf): k6's own command line, as xk6 would
// build it, so `go build ./cmd/k6` (or `go install <module>/cmd/k6@<tag>`) gives the custom k6.
package main

import (
	k6cmd "go.k6.io/k6/cmd"

	_ "github.com/org/mesh-perf-action/k6ext"
)

func main() {
	k6cmd.Execute()
}
