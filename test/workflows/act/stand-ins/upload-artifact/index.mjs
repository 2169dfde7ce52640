import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';

const input = (name) => process.env[`INPUT_${name.toUpperCase()}`] ?? '';
const name = input('name') || 'artifact';
const root = input('path');
const base = process.env.ACTIONS_RUNTIME_URL;
const runId = process.env.GITHUB_RUN_ID;

async function files(path) {
  const info = await stat(path).catch(() => undefined);
  if (!info) return [];
  if (info.isFile()) return [{ file: path, rel: basename(path) }];
  const out = [];
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.push({ file: join(entry.parentPath, entry.name), rel: relative(path, join(entry.parentPath, entry.name)) });
  }
  return out;
}

const list = await files(root);
if (list.length === 0) {
  console.log(`::${input('if-no-files-found') === 'error' ? 'error' : 'warning'}::upload-artifact stand-in: no files at ${root}`);
  process.exit(input('if-no-files-found') === 'error' ? 1 : 0);
}
const created = await fetch(`${base}_apis/pipelines/workflows/${runId}/artifacts`, {
  method: 'POST',
  body: JSON.stringify({ Type: 'actions_storage', Name: name }),
});
const { fileContainerResourceUrl } = await created.json();
for (const { file, rel } of list) {
  const body = await readFile(file);
  const url = `${fileContainerResourceUrl}?itemPath=${encodeURIComponent(`${name}/${rel.split('\\').join('/')}`)}`;
  const put = await fetch(url, {
    method: 'PUT',
    body,
    headers: { 'content-range': `bytes 0-${Math.max(body.length - 1, 0)}/${body.length}` },
  });
  if (!put.ok) throw new Error(`upload of ${rel} failed: HTTP ${put.status}`);
}
await fetch(`${base}_apis/pipelines/workflows/${runId}/artifacts?artifactName=${encodeURIComponent(name)}`, {
  method: 'PATCH',
  body: JSON.stringify({ Size: 0 }),
});
console.log(`upload-artifact stand-in: ${list.length} file(s) as ${name} of run ${runId}`);
