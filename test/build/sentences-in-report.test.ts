// The analysis hands over evidence (numbers and codes, src/results/evidence.ts); report/ words it
// (report/gate-words.ts, analysis-words.ts, verdict-words.ts, calibration-words.ts). A sentence
// written where evidence is made is worded a second way, and two outputs drift apart. This finds
// prose in src/analysis/ and src/results/: string and template literals of three words or more,
// outside an error being thrown (an error message is not a rendering of evidence) and outside the
// named exceptions below.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Areas that make evidence and must not word it. */
const EVIDENCE_AREAS = ['analysis', 'results'];

/**
 * Files allowed to hold prose, each with why. Keys are paths under src/.
 * - results/schema.ts, results/analysis-schema.ts: the JSON Schema's field descriptions.
 * - analysis/change-points/detect.ts: why a series cannot be split (too few runs, a value that is
 *   not a number). It is stored with the timeline in the history store ("skipped") and shown by the
 *   dashboard as is; a code there would change the store's format.
 */
const ALLOWED_FILES = new Set(['results/schema.ts', 'results/analysis-schema.ts', 'analysis/change-points/detect.ts']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Literal text of a string or template (placeholders as "x"). */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => `x${s.literal.text}`)].join('');
  return undefined;
}

/** Inside `throw …` or `new …Error(…)`: an error's message. */
function inError(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isThrowStatement(at)) return true;
    if (ts.isNewExpression(at) && /Error$/.test(at.expression.getText())) return true;
    if (ts.isFunctionLike(at)) return false;
  }
  return false;
}

const PROSE = /[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}/;

/** Prose literals of one source text, as "line: text". */
export function proseIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    // Imports and type positions hold module paths and literal types, not output.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
    const literal = literalText(node);
    if (literal !== undefined) {
      if (PROSE.test(literal) && !inError(node)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${line + 1}: ${literal.slice(0, 80)}`);
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no sentences where evidence is made: analysis/ and results/ hand codes to report/', () => {
  const offenders: string[] = [];
  const stale: string[] = [];
  for (const area of EVIDENCE_AREAS) {
    for (const path of filesUnder(join(src, area))) {
      const name = relative(src, path);
      const hits = proseIn(name, readFileSync(path, 'utf8'));
      if (!ALLOWED_FILES.has(name)) offenders.push(...hits.map((hit) => `${name}:${hit}`));
      else if (hits.length === 0) stale.push(name);
    }
  }
  assert.deepEqual(offenders, [], 'return a code and the figures it needs; word it in src/report/ (see src/report/gate-words.ts)');
  assert.deepEqual(stale, [], 'these exceptions hold no prose any more: take them off ALLOWED_FILES');
});

test('the check can fail: a gate line written in the analysis is found, an error message is not', () => {
  const hits = proseIn(
    'analysis/x.ts',
    [
      'export function f(mode: string) {',
      '  if (!mode) throw new Error(`no mode was given to f`);',
      '  return { line: `${mode}: no valid repetition to judge` };',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(hits, ['3: x: no valid repetition to judge']);
});
