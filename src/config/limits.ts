// Upper bounds for every count and size a config can hold, checked by the schema before anything
// is built from them: `load.repetitions: 1000000000` used to allocate a plan of billions of trials
// (6 GB, then a V8 crash), a gate scope of 50,000 names 945 MB of messages. Each bound is far
// beyond what a real benchmark uses, so no one meets it except by a typo or on purpose; the
// message names the limit.

const DAY_MS = 86_400_000;

export const LIMITS = {
  /** Modes of one run: each is a namespace or a set of local processes; real comparisons have 2 to 10. */
  modes: 1000,
  /** Load profiles of one run: a rate sweep has a dozen steps. */
  profiles: 1000,
  /** Repetitions per mode and profile: 100,000 of 1 s each is 28 hours of load per mode. */
  repetitions: 100_000,
  /** Trials of one plan (modes × profiles × repetitions): each is a k6 run and a row of results. */
  trials: 1_000_000,
  /** Virtual users: k6 runs 30,000-40,000 on one large machine; 1,000,000 is 25 such machines. */
  vus: 1_000_000,
  /** k6 instances sharing one repetition (load.generators): one per core of a large cluster. */
  generators: 1000,
  /** The plan's seed: the shuffle's PRNG keeps 32 bits, so a larger seed would repeat a smaller one's order. */
  seed: 4_294_967_295,
  /** Requests per second: the largest published mesh benchmarks drive about 100,000. */
  rate: 10_000_000,
  /** One duration (a repetition, a warm-up, a timeout): a week, where a real one is minutes. */
  durationMs: 7 * DAY_MS,
  /** Text of one value (a path, a URL, a version, a gate, a label): PATH_MAX is 4,096 bytes. */
  text: 4096,
  /** One gate expression: "mode=linkerd,istio-sidecar: p(99) < 5ms" is 40 characters. */
  gate: 1000,
  /** A POST body written inline (load.body); load.payloadBytes generates larger ones. */
  body: 500_000,
  /** Entries of one map (env, headers, labels, --set values) and of one list of gates. */
  entries: 1000,
  /**
   * The config file itself: a real one is a few kilobytes; this leaves room for an inline body.
   * It also bounds the YAML parser's work (linear, about 60 ms per 10,000 list items).
   */
  fileBytes: 2_000_000,
} as const;

export const formatLimit = (n: number) => n.toLocaleString('en-US');
