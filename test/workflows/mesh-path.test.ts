// The kind e2e jobs' check that each mesh mode's proxies were really in the path
// (scripts/assert-mesh-path.mjs), on constructed results: what passes, and each way a mode can
// have run without its mesh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// @ts-expect-error: a plain .mjs script (CI runs it with node alone), without type declarations
import { meshPathProblems, PROXY_GROUPS } from '../../scripts/assert-mesh-path.mjs';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'scripts', 'assert-mesh-path.mjs');

const usage = (group: string, scope: string, cpu: number, perK?: number) => ({
  group,
  scope,
  cpuMillicores: { min: cpu / 2, max: cpu * 2, avg: cpu },
  memoryMiB: { min: 20, max: 30, avg: 25 },
  ...(perK !== undefined ? { cpuPer1000Rps: perK } : {}),
  samples: cpu > 0 ? 3 : 0,
});
const rep = (trial: number, resources: unknown[], valid = true) => ({ trial, valid, resources });
const mode = (name: string, mesh: string, reps: unknown[]) => ({ name, mesh, profile: '200rps', repetitions: reps });

function run(): Record<string, unknown> {
  return {
    modes: [
      mode('baseline', 'baseline', [rep(0, [usage('app', 'baseline', 40)])]),
      mode('linkerd', 'linkerd', [
        rep(1, [usage('app', 'linkerd', 40), usage('sidecar', 'linkerd', 35, 170)]),
        rep(4, [usage('app', 'linkerd', 41), usage('sidecar', 'linkerd', 33, 160)]),
      ]),
      mode('istio-waypoint', 'istio-waypoint', [
        rep(2, [
          usage('app', 'istio-waypoint', 40),
          usage('ztunnel', 'istio-system', 12, 60),
          usage('waypoint', 'istio-waypoint', 55, 270),
        ]),
      ]),
      mode('istio-ambient', 'istio-ambient', [rep(3, [usage('ztunnel', 'istio-system', 11, 55)])]),
    ],
  };
}

test('a run whose sidecars, ztunnel and waypoint all report CPU passes', () => {
  assert.deepEqual(meshPathProblems(run(), ['linkerd', 'istio-waypoint', 'istio-ambient'], { cpuPer1000: true }), []);
  assert.deepEqual(PROXY_GROUPS['istio-waypoint'], ['ztunnel', 'waypoint']);
});

test('each way a mode ran without its proxies is named: missing containers, no CPU, no per-1000-rps figure, missing mode', () => {
  const r = run() as { modes: { name: string; repetitions: { resources: ReturnType<typeof usage>[]; valid: boolean }[] }[] };
  const linkerd = r.modes.find((m) => m.name === 'linkerd')!;
  linkerd.repetitions[1]!.resources = linkerd.repetitions[1]!.resources.filter((u) => u.group !== 'sidecar');
  const waypoint = r.modes.find((m) => m.name === 'istio-waypoint')!;
  waypoint.repetitions[0]!.resources = waypoint.repetitions[0]!.resources.map((u) =>
    u.group === 'waypoint' ? usage('waypoint', 'x', 0) : u,
  );
  const ambient = r.modes.find((m) => m.name === 'istio-ambient')!;
  ambient.repetitions[0]!.resources = [usage('ztunnel', 'istio-system', 11)];
  assert.deepEqual(meshPathProblems(r, ['linkerd', 'istio-waypoint', 'istio-ambient', 'istio-sidecar'], { cpuPer1000: true }), [
    'mode linkerd [200rps] repetition 4: no sidecar containers in its resources',
    'mode istio-waypoint [200rps] repetition 2: waypoint reported no CPU (samples 0)',
    'mode istio-ambient [200rps] repetition 3: ztunnel has no CPU per 1000 rps (is the measured window at least 60 s?)',
    'mode istio-sidecar: not in the results',
  ]);
  // Without --cpu-per-1000 a short window is fine; invalid repetitions are not judged, but a mode needs one valid.
  assert.deepEqual(meshPathProblems(r, ['istio-ambient']), []);
  ambient.repetitions[0]!.valid = false;
  assert.deepEqual(meshPathProblems(r, ['istio-ambient']), ['mode istio-ambient [200rps]: no valid repetition']);
  assert.match(meshPathProblems(r, ['baseline'])[0]!, /mesh baseline has no proxies to look for/);
});

test('as the CI step runs it: ::error lines and exit 1, or one line and exit 0', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-path-'));
  try {
    const file = join(dir, 'results.json');
    writeFileSync(file, JSON.stringify(run()));
    const ok = spawnSync(process.execPath, [SCRIPT, file, 'linkerd', 'istio-waypoint', '--cpu-per-1000'], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.equal(ok.stdout, 'proxies in the path: linkerd, istio-waypoint\n');
    const missing = spawnSync(process.execPath, [SCRIPT, file, 'istio-sidecar'], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.equal(missing.stdout, '::error::mode istio-sidecar: not in the results\n');
    assert.equal(spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' }).status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("A/B arms of a mesh mode (linkerd-base, linkerd-head) are checked for their mode's proxies", () => {
  const arm = (side: string, proxy: boolean) => ({
    name: `linkerd-${side}`,
    arm: { of: 'linkerd', side },
    profile: '200rps',
    repetitions: [rep(1, [usage('app', `linkerd-${side}`, 40), ...(proxy ? [usage('sidecar', `linkerd-${side}`, 30)] : [])])],
  });
  assert.deepEqual(meshPathProblems({ modes: [arm('base', true), arm('head', true)] }, ['linkerd-base', 'linkerd-head']), []);
  assert.deepEqual(meshPathProblems({ modes: [arm('base', true), arm('head', false)] }, ['linkerd-base', 'linkerd-head']), [
    'mode linkerd-head [200rps] repetition 1: no sidecar containers in its resources',
  ]);
});

test('ci.yml runs Linkerd and ambient + waypoint on kind, each checking its proxies with this script', async () => {
  const { parse } = await import('yaml');
  const { readFileSync } = await import('node:fs');
  type Step = { uses?: string; run?: string; with?: Record<string, string> };
  const ci = parse(readFileSync(resolve(import.meta.dirname, '..', '..', '.github/workflows/ci.yml'), 'utf8')) as {
    jobs: Record<string, { steps?: Step[] }>;
  };
  const covered = new Set<string>();
  for (const { steps = [] } of Object.values(ci.jobs)) {
    const action = steps.find((s) => s.uses === './' && s.with?.platform === 'kind');
    if (!action) continue;
    const check = steps.find((s) => s.run?.startsWith('node scripts/assert-mesh-path.mjs'));
    const modes = (action.with?.modes ?? '').split(',');
    for (const m of modes) if (m in PROXY_GROUPS && check?.run?.includes(` ${m}`)) covered.add(m);
    // The CPU figure needs a 60 s window.
    if (check?.run?.includes('--cpu-per-1000')) assert.equal(action.with?.duration, '60s');
  }
  for (const m of ['linkerd', 'istio-ambient', 'istio-waypoint']) assert.ok(covered.has(m), `no kind e2e job asserts ${m}'s proxies`);
});
