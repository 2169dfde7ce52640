// Dependencies in src/ run one way: no file imports itself back through others (type-only imports
// count: a type cycle ties the modules together just the same), and no top-level area of src/
// (analysis, config, results, platform, ...) reaches back to an area that imports it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * Area pairs allowed to import each other, each with why. The history store writes the static
 * site's pages when it publishes (history/publish-plan.ts → site/pages.ts) while the site reads
 * the store's layout and index types; untangling it means handing the store a site renderer.
 */
const ALLOWED_AREA_CYCLES = new Set(['history<->site']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import, export-from and import() of each file, as repo-relative paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(src, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
    graph.set(relative(src, file), [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one member (Tarjan), each one cycle or more. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The area of a file: its top-level folder under src/, or the file itself at the top. */
const areaOf = (file: string): string => file.split('/')[0]!.replace(/\.ts$/, '');

test('every relative import in src/ resolves to a file the walk found', () => {
  const graph = importGraph();
  const missing = [...graph].flatMap(([file, targets]) => targets.filter((t) => !graph.has(t)).map((t) => `${file} → ${t}`));
  assert.deepEqual(missing, []);
});

test('no import cycle between files in src/', () => {
  const found = cycles(importGraph());
  assert.deepEqual(
    found,
    [],
    `import cycles (each line one set of files that import each other):\n${found.map((c) => c.join(', ')).join('\n')}`,
  );
});

test('no import cycle between the areas of src/', () => {
  const areas = new Map<string, string[]>();
  const witness = new Map<string, string>();
  for (const [file, targets] of importGraph()) {
    for (const target of targets) {
      const from = areaOf(file);
      const to = areaOf(target);
      if (from === to) continue;
      areas.set(from, [...new Set([...(areas.get(from) ?? []), to])]);
      if (!witness.has(`${from}→${to}`)) witness.set(`${from}→${to}`, `${file} → ${target}`);
    }
  }
  const allowed = (a: string, b: string) => ALLOWED_AREA_CYCLES.has(`${a}<->${b}`) || ALLOWED_AREA_CYCLES.has(`${b}<->${a}`);
  for (const pair of ALLOWED_AREA_CYCLES) {
    const [a, b] = pair.split('<->') as [string, string];
    areas.set(
      a,
      (areas.get(a) ?? []).filter((to) => !(to === b && allowed(a, b))),
    );
  }
  const found = cycles(areas);
  const explain = found.map((c) => c.flatMap((a) => c.map((b) => witness.get(`${a}→${b}`)).filter(Boolean)).join('; '));
  assert.deepEqual(found, [], `areas that import each other:\n${explain.join('\n')}`);
});
