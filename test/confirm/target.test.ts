// Which change point a confirmation answers: the newest raised one without a verdict (a mode's
// latency before its errors), one named exactly, or none; and the day's budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConfirmationRecord } from '../../src/confirm/record.ts';
import type { SuiteChangePoint, SuiteChangePoints } from '../../src/history/change-points.ts';
import { confirmationsToday, pickChangePoint, raisedChangePoints } from '../../src/history/confirm-target.ts';

const cp = (mode: string, metric: string, after: string, size: number, at: string): SuiteChangePoint => ({
  branch: 'main',
  profile: '100rps',
  mode,
  metric: metric as SuiteChangePoint['metric'],
  before: `${after}-1`,
  after,
  afterStartedAt: at,
  size,
  sizeLow: size / 2,
  sizeHigh: size * 1.5,
  p: 1e-6,
  slower: size > 0,
  segments: [
    { from: 'x', to: `${after}-1`, runs: 10, median: 1, low: 1, high: 1, coverage: 0.95 },
    { from: after, to: 'y', runs: 3, median: 1 + size, low: 1, high: 1, coverage: 0.75 },
  ],
  changed: {},
});

const changes = (list: SuiteChangePoint[]): SuiteChangePoints => ({
  changePoints: [...list].sort((a, b) => (a.afterStartedAt < b.afterStartedAt ? 1 : -1)),
  series: list.map((c) => ({
    branch: c.branch,
    profile: c.profile,
    mode: c.mode,
    metric: c.metric,
    runs: 20,
    missing: 0,
    changePoints: [c],
  })),
});

const verdict = (c: SuiteChangePoint, v: ConfirmationRecord['verdict'], startedAt = '2026-11-20T05:00:00Z', ran = v !== 'not-run') =>
  ({
    branch: c.branch,
    profile: c.profile,
    mode: c.mode,
    before: c.before,
    after: c.after,
    verdict: v,
    startedAt,
    rounds: ran ? [{ purpose: 'ab', runId: 'x', verdict: 'pass', groups: [], elapsedS: 60 }] : [],
  }) as unknown as ConfirmationRecord;

test('the newest raised change point without a verdict, latency before errors; too small or faster ones are not raised', () => {
  const older = cp('svc', 'p50', 'r1', 0.1, '2026-11-01T03:00:00Z');
  const err = cp('svc', 'err', 'r2', 0.01, '2026-11-05T03:00:00Z');
  const p50 = cp('svc', 'p50', 'r2', 0.08, '2026-11-05T03:00:00Z');
  const small = cp('other', 'p50', 'r3', 0.03, '2026-11-09T03:00:00Z');
  const faster = cp('other', 'p99', 'r3', -0.2, '2026-11-09T03:00:00Z');
  const all = changes([older, err, p50, small, faster]);
  assert.deepEqual(raisedChangePoints(all, 5), [p50, err, older]);
  const picked = pickChangePoint(all, [], 'newest', 5);
  assert.ok('changePoint' in picked && picked.changePoint === p50);
  // Answered (any figure of the mode at those runs): the next one.
  const next = pickChangePoint(all, [verdict(p50, 'withdrawn')], undefined, 5);
  assert.ok('changePoint' in next && next.changePoint === older, JSON.stringify(next));
  // A verdict the budget stopped does not count as an answer.
  const again = pickChangePoint(all, [verdict(p50, 'not-run')], undefined, 5);
  assert.ok('changePoint' in again && again.changePoint === p50);
  const none = pickChangePoint(all, [verdict(p50, 'confirmed'), verdict(older, 'confirmed')], undefined, 5);
  assert.ok('none' in none);
});

test('a change point named exactly, and a name that matches none said with the newest ones', () => {
  const p50 = cp('svc', 'p50', 'r2', 0.08, '2026-11-05T03:00:00Z');
  const named = pickChangePoint(changes([p50]), [], '100rps/svc/p50@r2', 5);
  assert.ok('changePoint' in named && named.changePoint === p50);
  assert.throws(
    () => pickChangePoint(changes([p50]), [], '100rps/svc/p99@r2', 5),
    /no such change point; the newest are 100rps\/svc\/p50@r2/,
  );
  assert.throws(() => pickChangePoint(changes([p50]), [], 'svc', 5), /expected "newest" or <profile>\/<mode>\/<metric>@<run id>/);
});

test('the budget counts the confirmations that ran load in the last 24 hours', () => {
  const c = cp('svc', 'p50', 'r2', 0.08, '2026-11-05T03:00:00Z');
  const now = new Date('2026-11-21T04:00:00Z');
  const records = [
    verdict(c, 'confirmed', '2026-11-21T03:30:00Z'),
    verdict(c, 'not-run', '2026-11-21T03:40:00Z'),
    // A verdict reached without a run (only fixed settings changed) uses no load, so no budget.
    verdict(c, 'cannot-rerun', '2026-11-21T03:50:00Z', false),
    verdict(c, 'withdrawn', '2026-11-19T03:00:00Z'),
  ];
  assert.equal(confirmationsToday(records, now), 1);
});
