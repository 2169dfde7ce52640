// Raw samples of one k6 instance's measured scenario, read from k6's `--out csv` file. A group
// of instances is merged from these (exact percentiles of the union), never from per-instance
// percentiles. The reader (collectRawSamples) lands with the group engine (issue 15).

/** One instance's measured-scenario samples; durations in ms as k6 wrote them (6 decimals). */
export interface RawSamples {
  /** Durations of requests judged successful (expected_response:true, gRPC OK). */
  successMs: Float64Array;
  /** Timeline bucket (mp_bucket) of each success, aligned with successMs. */
  successBucket: Uint16Array;
  /** Durations of failed requests. */
  failureMs: Float64Array;
  /** Timeline bucket of each failure, aligned with failureMs. */
  failureBucket: Uint16Array;
  /** iteration_duration of each measured iteration. */
  iterationMs: Float64Array;
  /** Epoch ms of the first and last measured sample (CSV timeFormat unix_milli). */
  firstMs: number;
  lastMs: number;
}
