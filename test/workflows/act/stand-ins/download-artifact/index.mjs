import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

const input = (name) => process.env[`INPUT_${name.toUpperCase()}`] ?? '';
const name = input('name');
const dest = resolve(process.env.GITHUB_WORKSPACE, input('path') || '.');
const runId = input('run-id') || process.env.GITHUB_RUN_ID;
const base = process.env.ACTIONS_RUNTIME_URL;

const listed = await (await fetch(`${base}_apis/pipelines/workflows/${runId}/artifacts`)).json();
const artifact = (listed.value ?? []).find((a) => a.name === name);
if (!artifact) {
  console.log(
    `::error::download-artifact stand-in: run ${runId} has no artifact ${name} (has: ${(listed.value ?? []).map((a) => a.name).join(', ') || 'none'})`,
  );
  process.exit(1);
}
const items = await (await fetch(`${artifact.fileContainerResourceUrl}?itemPath=${encodeURIComponent(name)}`)).json();
let count = 0;
for (const item of items.value ?? []) {
  if (item.itemType !== 'file') continue;
  const rel = item.path.startsWith(`${name}/`) ? item.path.slice(name.length + 1) : item.path;
  const target = join(dest, rel);
  if (!target.startsWith(dest)) throw new Error(`artifact path escapes the destination: ${item.path}`);
  const response = await fetch(item.contentLocation);
  if (!response.ok) throw new Error(`download of ${item.path} failed: HTTP ${response.status}`);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, Buffer.from(await response.arrayBuffer()));
  count++;
}
console.log(`download-artifact stand-in: ${count} file(s) of ${name} from run ${runId} into ${dest}`);
