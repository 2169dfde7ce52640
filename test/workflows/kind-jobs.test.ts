// Workflows that run kind: inotify limits are only ever raised (GitHub's runner images already set
// 655360 watches / 1280 instances; writing kind's 524288/512 would lower them), and the project's
// kind e2e keeps kind's logs when it fails. Structural: the kind job cannot run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { documentationPages } from './doc-examples.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const RUNNER_IMAGE_INOTIFY: Record<string, number> = { 'fs.inotify.max_user_watches': 655360, 'fs.inotify.max_user_instances': 1280 };
const yamlIn = (dir: string) =>
  existsSync(join(ROOT, dir))
    ? readdirSync(join(ROOT, dir))
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => join(dir, f))
    : [];
const FILES = [
  ...yamlIn('.github/workflows'),
  ...yamlIn('workflows'),
  'action.yml',
  'setup/action.yml',
  'comment/action.yml',
  ...documentationPages(ROOT),
].filter((f) => existsSync(join(ROOT, f)));

/** `sysctl -w fs.inotify.<key>=<n>` with a literal n below what the runner images already have. */
export function inotifyLowerings(text: string): string[] {
  return [...text.matchAll(/sysctl\s+(?:-\w+\s+)*(fs\.inotify\.\w+)=(\d+)/g)]
    .filter(([, key, value]) => Number(value) < (RUNNER_IMAGE_INOTIFY[key!] ?? 0))
    .map(([match]) => match);
}

test("the rule catches a literal sysctl that lowers the runner images' inotify limits", () => {
  assert.deepEqual(
    inotifyLowerings('sudo sysctl -w fs.inotify.max_user_watches=524288\nsudo sysctl -w fs.inotify.max_user_instances=2048'),
    ['sysctl -w fs.inotify.max_user_watches=524288'],
  );
  assert.deepEqual(inotifyLowerings('sudo sysctl -w "$1=$2"'), []);
});

test('no workflow, action or documentation advice lowers inotify limits', () => {
  const found = FILES.flatMap((f) => inotifyLowerings(readFileSync(join(ROOT, f), 'utf8')).map((m) => `${f}: ${m}`));
  assert.deepEqual(found, []);
});

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

test('the kind e2e keeps kind logs when it fails: kind export logs, then an artifact', () => {
  const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  const e2e = ci.jobs.e2e!.steps;
  const action = e2e.findIndex((s) => s.uses === './');
  const exportLogs = e2e.findIndex((s) => /kind"? export logs/.test(s.run ?? ''));
  assert.ok(action >= 0 && exportLogs > action, 'a step after the action runs kind export logs');
  assert.match(e2e[exportLogs]!.if ?? '', /failure\(\)/);
  const upload = e2e.slice(exportLogs + 1).find((s) => s.uses?.startsWith('actions/upload-artifact@'));
  assert.ok(upload, 'the exported logs are uploaded');
  assert.match(upload.if ?? '', /failure\(\)/);
  assert.equal(upload.with?.path, '${{ runner.temp }}/kind-logs');
  assert.match(e2e[exportLogs]!.run!, /\$RUNNER_TEMP\/kind-logs/);
});
