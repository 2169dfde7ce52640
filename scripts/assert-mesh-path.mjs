#!/usr/bin/env node
// Asserts that each mode of a kind e2e run really had its mesh's proxies in the path, from what
// the proxies themselves counted (results.json repetitions[].path, read by mesh-perf from their
// own metrics before and after each repetition: ztunnel's connections and bytes, Envoy's and
// linkerd-proxy's requests into the mode's namespace):
//
// - every proxy the mode's traffic must cross (the ingress gateway with an ingress; sidecars;
//   ztunnel; a waypoint; linkerd-proxy) counted it: requests at least 90% of what k6 sent,
//   ztunnel at least one connection and half the bytes k6 sent;
// - under mutual TLS where the mesh gives it (Istio's proxies' server side, Linkerd between meshed
//   pods), with a client identity;
// - and no mesh proxy outside the mode's path counted it: the baseline's traffic (checked
//   whenever the run has a baseline with counters) crossed no ztunnel, sidecar or waypoint.
//
// CPU above zero, what this checked before, cannot tell: ztunnel runs on every node and an idle
// waypoint burns some, so a gateway that skipped the waypoint or a pod ambient never captured
// passed. With --cpu-per-1000 each proxy group must also report CPU per 1000 rps (a 60 s window).
//
//   node scripts/assert-mesh-path.mjs results.json linkerd istio-waypoint [--cpu-per-1000]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Proxies (results.json `path.proxies[].proxy`) each mesh mode's traffic must cross, besides an ingress gateway. */
export const PATH_PROXIES = {
  baseline: [],
  'istio-sidecar': ['sidecar'],
  'istio-ambient': ['ztunnel'],
  'istio-waypoint': ['waypoint', 'ztunnel'],
  linkerd: ['linkerd-proxy'],
};

/** Resource groups (results.json `resources[].group`) whose CPU per 1000 rps --cpu-per-1000 asks for. */
export const PROXY_GROUPS = {
  'istio-sidecar': ['sidecar'],
  'istio-ambient': ['ztunnel'],
  'istio-waypoint': ['ztunnel', 'waypoint'],
  linkerd: ['sidecar'],
};

const MIN_REQUEST_SHARE = 0.9;
const MIN_BYTE_SHARE = 0.5;

function kindOf(row) {
  // An arm (linkerd-base, linkerd-head) is in the mesh of the mode it belongs to.
  return row.mesh ?? (PATH_PROXIES[row.name] ? row.name : (row.arm?.of ?? row.name));
}

function viaIngress(result, row) {
  return /via ingress gateway/.test(row.target ?? '') || Boolean(result.run?.environment?.ingress);
}

/** Mutual TLS the mesh gives this path: Istio's server-side proxies always; Linkerd only between meshed pods (not from Istio's gateway). */
function mtlsExpected(kind, proxy, ingress) {
  if (proxy === 'gateway') return false;
  if (kind.startsWith('istio-')) return true;
  return kind === 'linkerd' && !ingress;
}

function repetitionProblems(result, row, rep, where) {
  const kind = kindOf(row);
  const ingress = viaIngress(result, row);
  const expected = [...(ingress ? ['gateway'] : []), ...PATH_PROXIES[kind]];
  const path = rep.path;
  if (!path) return [`${where}: no proxy counters in its results (repetitions[].path); mesh-perf reads them on kind and kubeconfig`];
  const why = path.problems?.length ? ` (${path.problems.join('; ')})` : '';
  const problems = [];
  for (const proxy of expected) {
    const seen = path.proxies.find((p) => p.proxy === proxy);
    if (!seen || seen.pods === 0) {
      problems.push(`${where}: no ${proxy} pod's counters were read${why}`);
      continue;
    }
    if (seen.unit === 'requests' && seen.count < MIN_REQUEST_SHARE * rep.requests)
      problems.push(
        `${where}: ${proxy} counted ${seen.count} requests into the mode's namespace of the ${rep.requests} k6 sent: the traffic did not go through it`,
      );
    if (seen.unit === 'connections') {
      const bytes = seen.bytesReceived ?? 0;
      if (seen.count === 0 || bytes < MIN_BYTE_SHARE * rep.bytesSent)
        problems.push(
          `${where}: ${proxy} counted ${seen.count} connections and ${bytes} bytes into the mode's namespace of the ${rep.bytesSent} bytes k6 sent: the traffic did not go through it`,
        );
    }
    if (!mtlsExpected(kind, proxy, ingress) || seen.count === 0) continue;
    const wanted = seen.unit === 'requests' ? MIN_REQUEST_SHARE * rep.requests : seen.count;
    if (seen.mtls < wanted)
      problems.push(
        `${where}: ${proxy} saw ${seen.mtls} of its ${seen.count} ${seen.unit} with mutual TLS (${seen.plaintext} without): mTLS was not in force`,
      );
    else if (seen.peers.length === 0) problems.push(`${where}: ${proxy} saw mutual TLS but no client identity`);
  }
  for (const seen of path.proxies) {
    if (expected.includes(seen.proxy) || seen.proxy === 'gateway' || seen.count === 0) continue;
    problems.push(
      `${where}: ${seen.proxy} counted ${seen.count} ${seen.unit} into the mode's namespace, which a ${kind} mode does not cross`,
    );
  }
  return problems;
}

function cpuProblems(row, rep, where) {
  const problems = [];
  for (const group of PROXY_GROUPS[kindOf(row)] ?? []) {
    const usage = (rep.resources ?? []).filter((u) => u.group === group);
    if (usage.length === 0) problems.push(`${where}: no ${group} containers in its resources`);
    else if (!usage.some((u) => typeof u.cpuPer1000Rps === 'number' && u.cpuPer1000Rps > 0))
      problems.push(`${where}: ${group} has no CPU per 1000 rps (is the measured window at least 60 s?)`);
  }
  return problems;
}

/** What is wrong, one line each; empty when every mode's traffic crossed its proxies, and the baseline's none. */
export function meshPathProblems(result, modes, options = {}) {
  const problems = [];
  const judged = [...modes];
  // The baseline, when it has counters: its traffic must not have crossed the mesh.
  const baseline = result.baseline;
  const baselineRows = (result.modes ?? []).filter((m) => m.name === baseline);
  if (baseline && !judged.includes(baseline) && baselineRows.some((m) => m.repetitions.some((r) => r.path))) judged.push(baseline);
  for (const mode of judged) {
    const rows = (result.modes ?? []).filter((m) => m.name === mode);
    if (rows.length === 0) {
      problems.push(`mode ${mode}: not in the results`);
      continue;
    }
    for (const row of rows) {
      const kind = kindOf(row);
      if (!PATH_PROXIES[kind]) {
        problems.push(`mode ${mode}: mesh ${kind} has no proxies to look for (expected one of ${Object.keys(PATH_PROXIES).join(', ')})`);
        continue;
      }
      const valid = row.repetitions.filter((r) => r.valid);
      if (valid.length === 0) {
        // Why (mesh-perf invalidates a repetition whose own proxies' counters show it skipped its mesh).
        const why = row.repetitions
          .filter((r) => (r.invalidReasons ?? []).length > 0)
          .map((r) => `repetition ${r.trial}: ${r.invalidReasons.join('; ')}`);
        problems.push(`mode ${mode} [${row.profile}]: no valid repetition${why.length > 0 ? ` (${why.join('; ')})` : ''}`);
      }
      for (const rep of valid) {
        const where = `mode ${mode} [${row.profile}] repetition ${rep.trial}`;
        problems.push(...repetitionProblems(result, row, rep, where));
        if (options.cpuPer1000) problems.push(...cpuProblems(row, rep, where));
      }
    }
  }
  return problems;
}

function main(argv) {
  const cpuPer1000 = argv.includes('--cpu-per-1000');
  const [file, ...modes] = argv.filter((a) => a !== '--cpu-per-1000');
  if (!file || modes.length === 0) {
    process.stderr.write('usage: assert-mesh-path.mjs RESULTS.json MODE... [--cpu-per-1000]\n');
    return 2;
  }
  const problems = meshPathProblems(JSON.parse(readFileSync(file, 'utf8')), modes, { cpuPer1000 });
  for (const line of problems) process.stdout.write(`::error::${line}\n`);
  if (problems.length === 0) process.stdout.write(`proxies in the path, by their own counters: ${modes.join(', ')}\n`);
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv.slice(2));
