// The demo's two modes: two echo servers on 127.0.0.1, one reached directly and one through a
// forwarding proxy. `mesh-perf demo` runs them, and so does the action with `platform: local`
// when no modes are given (the one platform that needs nothing but this tool), with the demo's
// load unless a load was given.
export const DEMO_MODES = [
  { name: 'direct', local: { hops: 0 } },
  { name: 'one-proxy-hop', local: { hops: 1 } },
];

export const DEMO_LOAD = { rate: 300, duration: '5s', warmup: '1s', repetitions: 3 };
