// The pictures in docs/images/ (report.html, the dashboard, the PR comment, the job summary) are
// drawn by `npm run docs:images` from the renderers' sources and recorded inputs, and
// docs/images/sources.json records a hash of those (scripts/docs-images/freshness.ts says which
// files). A picture that is missing, over 200 KB, not shown in README or docs, or older than a
// renderer it was drawn by fails here, naming the changed files and the command that redraws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { changedSources, pictureSources, REGENERATE, sourcesHash } from '../../scripts/docs-images/freshness.ts';
import { PICTURES } from '../../scripts/docs-images/pages.ts';
import { MAX_BYTES, pngSize } from '../../scripts/docs-images/png.ts';
import { documentationPages } from '../workflows/doc-examples.ts';
import { links } from './markdown.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const IMAGES = join(ROOT, 'docs', 'images');
interface Manifest {
  regenerate: string;
  hash: string;
  images: Record<string, { bytes: number; width: number; height: number }>;
  sources: Record<string, string>;
}
const manifest = (): Manifest => JSON.parse(readFileSync(join(IMAGES, 'sources.json'), 'utf8')) as Manifest;

test('every picture is there, a PNG of at most 200 KB, as recorded', () => {
  const recorded = manifest();
  for (const { file } of PICTURES) {
    const path = join(IMAGES, file);
    assert.ok(existsSync(path), `docs/images/${file} is missing: run \`${REGENERATE}\``);
    const png = readFileSync(path);
    assert.ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file} is a PNG`);
    assert.ok(png.length <= MAX_BYTES, `${file} is ${png.length} bytes, over ${MAX_BYTES}`);
    assert.deepEqual({ bytes: png.length, ...pngSize(png) }, recorded.images[file], `${file} is the picture sources.json recorded`);
  }
  assert.deepEqual(Object.keys(recorded.images).sort(), PICTURES.map((p) => p.file).sort(), 'sources.json lists the pictures drawn');
});

test('the pictures are not older than the renderers and inputs they were drawn from', () => {
  const recorded = manifest();
  const current = pictureSources();
  const changed = changedSources(recorded.sources, current);
  assert.ok(
    recorded.hash === sourcesHash(current) && changed.length === 0,
    `docs/images/ is stale: ${changed.join(', ')} changed since the pictures were drawn; run \`${REGENERATE}\` and commit docs/images/`,
  );
});

test('the hash sees a changed renderer, browser script, input and package', () => {
  const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
  const base = pictureSources(read);
  for (const file of [
    'src/report/html/render.ts',
    'src/site/dashboard/render.ts',
    'src/site/dashboard/client.js',
    'src/github/comment-body.ts',
    'docs/images/inputs/demo.results.json',
  ]) {
    assert.ok(file in base, `${file} feeds the hash`);
    const edited = pictureSources((path) => (path === file ? `${read(path)}\n// edited` : read(path)));
    assert.notEqual(sourcesHash(edited), sourcesHash(base), file);
    assert.deepEqual(changedSources(base, edited), [file]);
  }
  const newer = pictureSources((path) => (path === 'node_modules/chart.js/package.json' ? '{"version":"99.0.0"}' : read(path)));
  assert.deepEqual(changedSources(base, newer), ['package chart.js']);
});

test('README shows the PR comment, the report and the dashboard, and a page shows every picture', () => {
  const shown = new Set(
    documentationPages(ROOT).flatMap((page) =>
      links(readFileSync(join(ROOT, page), 'utf8'))
        .map((l) => l.target)
        .filter((t) => /images\/[^/]+\.png$/.test(t))
        .map((t) => t.replace(/^.*images\//, '')),
    ),
  );
  for (const { file } of PICTURES) assert.ok(shown.has(file), `no page shows ${file}`);
  // The README: pictures of the PR comment, report.html and the dashboard.
  const inReadme = links(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((l) => l.target);
  for (const file of ['pr-comment.png', 'report.png', 'dashboard.png'])
    assert.ok(inReadme.includes(`docs/images/${file}`), `README does not show ${file}`);
});
