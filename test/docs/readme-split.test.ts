// README.md was cut from 1,033 lines to a short page (issue 41); every section it had moved to a
// page under docs/. This keeps each of those sections one click from README: README links to the
// page that holds it, and that page has the heading (the anchor README's link names). It also
// checks every relative link of README and docs/ lands on a file, and on a heading when it names one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { documentationPages } from '../workflows/doc-examples.ts';
import { headings, links } from './markdown.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** README.md's headings before the split (commit 00649c2), and the page and anchor each lives at now. */
const BEFORE_THE_SPLIT: { heading: string; home: string }[] = [
  { heading: '# mesh-perf-action', home: 'README.md#mesh-perf-action' },
  { heading: '## Quick start', home: 'README.md#quick-start' },
  { heading: '## The CLI', home: 'docs/cli.md#the-cli' },
  { heading: '## Configuration', home: 'docs/configuration.md#configuration' },
  {
    heading: '### A/B: base and head in the same run, measured until decided',
    home: 'docs/ab-gate.md#ab-base-and-head-in-the-same-run-measured-until-decided',
  },
  { heading: '## Meshes on Kubernetes', home: 'docs/kubernetes.md#meshes-on-kubernetes' },
  { heading: '### `load.engine: k6-operator`', home: 'docs/kubernetes.md#loadengine-k6-operator' },
  { heading: '### Images from your registry', home: 'docs/kubernetes.md#images-from-your-registry' },
  { heading: '## Presets', home: 'docs/presets.md#presets-the-published-benchmarks-as-one-line-of-config' },
  { heading: '## History and dashboard', home: 'docs/history.md#history-and-dashboard' },
  { heading: '## Methodology', home: 'docs/methodology.md#methodology-why-the-numbers-can-be-trusted-and-how-far' },
  { heading: '## The GitHub Action', home: 'docs/action.md#the-github-action' },
  { heading: '### Gate a mesh upgrade', home: 'docs/ab-gate.md#gate-a-mesh-upgrade' },
  { heading: '### Reusable workflows', home: 'docs/action.md#reusable-workflows' },
  { heading: '### GitHub Pages for the dashboard', home: 'docs/history.md#github-pages-for-the-dashboard' },
  { heading: '### Sub-actions', home: 'docs/action.md#sub-actions' },
  {
    heading: '### What the workflow tests prove, and what only GitHub can',
    home: 'docs/action.md#what-the-workflow-tests-prove-and-what-only-github-can',
  },
  { heading: '### Inputs and outputs', home: 'docs/action.md#inputs-and-outputs' },
  { heading: '## Load-generator fidelity', home: 'docs/fidelity.md#load-generator-fidelity' },
  { heading: '### More than one k6 process', home: 'docs/fidelity.md#more-than-one-k6-process' },
  { heading: '## Runners, versions and releases', home: 'docs/runners-releases.md#runners-versions-and-releases' },
  { heading: '## License', home: 'README.md#license' },
];

test('README.md is at most 250 lines', () => {
  const lines = read('README.md').trimEnd().split('\n').length;
  assert.ok(lines <= 250, `README.md has ${lines} lines`);
});

test('every section of the README before the split is one click from README: a link to its page, and the page has the heading', () => {
  const readme = read('README.md');
  const readmeLinks = new Set(links(readme).map((l) => l.target));
  for (const { heading, home } of BEFORE_THE_SPLIT) {
    const [page, anchor] = home.split('#') as [string, string];
    assert.ok(
      headings(read(page)).some((h) => h.anchor === anchor),
      `${heading}: ${page} has no heading with the anchor #${anchor}`,
    );
    if (page !== 'README.md')
      assert.ok(readmeLinks.has(home) || readmeLinks.has(page), `${heading}: README.md links neither ${home} nor ${page}`);
  }
});

test('README links to every docs page', () => {
  const targets = links(read('README.md')).map((l) => l.target.split('#')[0]);
  for (const page of documentationPages(ROOT).filter((p) => p !== 'README.md'))
    assert.ok(targets.includes(page), `README.md does not link ${page}`);
});

test('every relative link in README and docs/ reaches a file, and a heading of it when it names one', () => {
  const broken: string[] = [];
  for (const page of documentationPages(ROOT)) {
    for (const { line, target } of links(read(page))) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), decodeURI(path)));
      const where = `${page}:${line} → ${target}`;
      if (!existsSync(join(ROOT, file))) {
        broken.push(`${where}: no file ${file}`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !statSync(join(ROOT, file)).isDirectory()) {
        if (!headings(read(file)).some((h) => h.anchor === anchor)) broken.push(`${where}: ${file} has no heading #${anchor}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
