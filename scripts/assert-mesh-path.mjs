#!/usr/bin/env node
// Asserts that each mesh mode of a kind e2e run really had its proxies in the path: every valid
// repetition of the mode reports CPU of the proxy containers that mode puts between client and
// server (sidecars: istio-proxy / linkerd-proxy; ambient: ztunnel; ambient + waypoint: ztunnel
// and the waypoint), sampled inside the measured window, and with --cpu-per-1000 also the CPU per
// 1000 rps figure. A mode that silently ran without its mesh would pass a latency gate; this
// fails the job instead, naming the mode, the repetition and the missing proxy.
//
//   node scripts/assert-mesh-path.mjs results.json linkerd istio-waypoint [--cpu-per-1000]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Resource groups (results.json `resources[].group`) whose CPU proves each mesh mode's proxies ran. */
export const PROXY_GROUPS = {
  'istio-sidecar': ['sidecar'],
  'istio-ambient': ['ztunnel'],
  'istio-waypoint': ['ztunnel', 'waypoint'],
  linkerd: ['sidecar'],
};

/** What is missing, one line each; empty when every mode's proxies are in its results. */
export function meshPathProblems(result, modes, options = {}) {
  const problems = [];
  for (const mode of modes) {
    const rows = (result.modes ?? []).filter((m) => m.name === mode);
    if (rows.length === 0) {
      problems.push(`mode ${mode}: not in the results`);
      continue;
    }
    for (const row of rows) {
      // An arm (linkerd-base, linkerd-head) is in the mesh of the mode it belongs to.
      const kind = row.mesh ?? (PROXY_GROUPS[row.name] ? row.name : (row.arm?.of ?? row.name));
      const groups = PROXY_GROUPS[kind];
      if (!groups) {
        problems.push(`mode ${mode}: mesh ${kind} has no proxies to look for (expected one of ${Object.keys(PROXY_GROUPS).join(', ')})`);
        continue;
      }
      const valid = row.repetitions.filter((r) => r.valid);
      if (valid.length === 0) problems.push(`mode ${mode} [${row.profile}]: no valid repetition`);
      for (const rep of valid) {
        for (const group of groups) {
          const usage = (rep.resources ?? []).filter((u) => u.group === group);
          const where = `mode ${mode} [${row.profile}] repetition ${rep.trial}`;
          if (usage.length === 0) problems.push(`${where}: no ${group} containers in its resources`);
          else if (!usage.some((u) => u.samples > 0 && u.cpuMillicores.avg > 0))
            problems.push(`${where}: ${group} reported no CPU (samples ${usage.map((u) => u.samples).join('/')})`);
          else if (options.cpuPer1000 && !usage.some((u) => typeof u.cpuPer1000Rps === 'number' && u.cpuPer1000Rps > 0))
            problems.push(`${where}: ${group} has no CPU per 1000 rps (is the measured window at least 60 s?)`);
        }
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
  if (problems.length === 0) process.stdout.write(`proxies in the path: ${modes.join(', ')}\n`);
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv.slice(2));
