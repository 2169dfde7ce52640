// Each verdict line says one thing (issue 54): a regression gate's line gives one test with its p,
// one interval (the upper bound the decision uses) and one detectable-change figure, all from the
// same analysis, and never calls a change "not statistically significant" beside a p under alpha
// ("Mann–Whitney p=0.018, run-to-run p=0.079 … → inconclusive (not statistically significant";
// "+5.59% [+0.68%, +16.0%]" beside "up to +13.6% with 95% confidence"). Every output gives a mode
// one figure per kind of detectable change, and names which comparison it is about (two runs like
// this one, or the reference runs). Golden files per output for pass, inconclusive and fail, under
// fixtures/verdicts/<case>/; UPDATE_GOLDEN=1 rewrites them after an intended change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { assertGolden } from './support/golden.ts';
import { renderAll } from './support/outputs.ts';
import { VERDICT_CASES, type VerdictCase, verdictRun } from './support/verdict-runs.ts';

const GOLDEN = join(import.meta.dirname, 'fixtures', 'verdicts');
const OUTPUTS = ['terminal.txt', 'summary.md', 'job-summary.md', 'comment.md', 'report.html'];
const CASES = Object.keys(VERDICT_CASES) as VerdictCase[];

/** The regression gates' lines of a run, as results.json stores them (every output prints these). */
const regressionLines = (name: VerdictCase) =>
  verdictRun(name)
    .analysis!.gates.filter((g) => g.kind === 'regression')
    .map((g) => ({ mode: g.mode, decision: g.decision, line: g.line }));

test('each regression line: one p, one interval, one detectable-change figure, and words that agree with its p', () => {
  for (const name of CASES) {
    for (const { mode, line } of regressionLines(name)) {
      const where = `${name} ${mode}: ${line}`;
      assert.equal(line.match(/\bp[=<]/g)?.length, 1, `one test: ${where}`);
      assert.doesNotMatch(line, /Mann–Whitney|run-to-run p=/, where);
      assert.equal(line.match(/with 95% confidence/g)?.length, 1, `one interval: ${where}`);
      assert.doesNotMatch(line, /\[[^\]]*\d%?, [^\]]*\d%?\]/, `no second, bracketed interval: ${where}`);
      assert.doesNotMatch(line, /\[[×+-]?[\d.]+ ?m?s?, /, `no interval around the medians either: ${where}`);
      assert.equal(line.match(/are not detectable/g)?.length, 1, `one detectable-change figure: ${where}`);
      assert.match(line, /changes under [\d.]+% on p\(50\) against the reference runs are not detectable/, where);
      const p = /\bp=([\d.]+)/.exec(line)?.[1];
      if (/not statistically significant/.test(line))
        assert.ok(p !== undefined && Number(p) > 0.05, `"not significant" beside p ${p}: ${where}`);
    }
  }
  // The inconclusive case is the one the issue saw: the rank test alone would say p ≤ 0.05, the
  // run-to-run test does not; the line gives the decisive one, and says why it is inconclusive.
  const sidecar = regressionLines('inconclusive').find((g) => g.mode === 'sidecar')!;
  assert.equal(sidecar.decision, 'inconclusive');
  assert.match(sidecar.line, /p=0\.187 > 0\.05 \(run-to-run test over 5 reference runs\)/);
  assert.match(sidecar.line, /→ inconclusive \(not statistically significant, and its upper bound reaches the practical minimum;/);
  assert.equal(regressionLines('pass').find((g) => g.mode === 'sidecar')!.decision, 'pass');
  assert.equal(regressionLines('fail').find((g) => g.mode === 'sidecar')!.decision, 'fail');
});

test('every output gives each mode one p50 figure against the reference runs, the one its regression line states', () => {
  for (const name of CASES) {
    const outputs = renderAll(verdictRun(name));
    const gateFigure = new Map(
      regressionLines(name).map(({ mode, line }) => [
        mode,
        /changes under ([\d.]+%) on p\(50\) against the reference runs/.exec(line)![1]!,
      ]),
    );
    for (const file of OUTPUTS) {
      const text = outputs
        .get(file)!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\\([[\]])/g, '$1')
        .replace(/\s+/g, ' ');
      for (const [mode, figure] of gateFigure) {
        // Whatever else the output says about the mode's p50 against the reference runs says the same figure.
        const sentence = /p50 changes smaller than these are not detectable against the reference runs: (.*?)\.(?: |$)/.exec(text)?.[1];
        const compact = sentence === undefined ? undefined : new RegExp(`\\b${mode} ([\\d.]+%)`).exec(sentence);
        if (compact) assert.equal(compact[1], figure, `${name}/${file}: ${mode}'s compact figure`);
        const listed = new RegExp(
          `${mode} \\[1000rps\\]: with this noise, changes under ([\\d.]+%) on p\\(50\\) against the reference runs`,
        ).exec(text);
        if (listed) assert.equal(listed[1], figure, `${name}/${file}: ${mode}'s detectability line`);
        assert.ok(compact || listed || file === 'comment.md', `${name}/${file} states ${mode}'s detectable change`);
      }
      // The threshold's figure is the run's own, and says so: a different comparison, named.
      if (/p\(50\) < 10ms|p\(50\): [\d.]+ ms/.test(text)) assert.doesNotMatch(text, /changes under [\d.]+% on p\(50\) are not detectable/);
    }
  }
});

for (const name of CASES) {
  test(`${name}: terminal, summary.md, job summary, PR comment and report.html match their golden files`, () => {
    const outputs = renderAll(verdictRun(name));
    assertGolden(join(GOLDEN, name), new Map(OUTPUTS.map((file) => [file, outputs.get(file)!])));
  });
}
