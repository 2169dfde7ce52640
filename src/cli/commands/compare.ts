// `mesh-perf compare <baseline-results.json> <candidate-results.json>`: judges the candidate
// against the baseline file with the same engine as the run gate (src/analysis), prints the
// comparison, and exits 1 when the candidate regressed. Refuses (exit 2) to compare results of
// different scenarios, naming the fields that differ.
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { specialFileKind } from '../../util/file-kind.ts';
import { join, resolve } from 'node:path';
import { analyzeRun } from '../../analysis/analyze.ts';
import { exitCodeFor } from '../../analysis/verdict.ts';
import { explainDifferences, wordAnalysis } from '../../report/analysis-words.ts';
import { compareScenarios } from '../../analysis/scenario.ts';
import { renderComparison } from '../../report/analysis-text.ts';
import { loadConfig } from '../../config/load.ts';
import { validateConfig, type Config } from '../../config/validate.ts';
import { parseResultsJson } from '../../results/migrate.ts';
import type { RunResult } from '../../results/types.ts';
import { UsageError } from '../../util/errors.ts';
import { wrap } from '../../report/terminal.ts';
import { terminalWidth } from '../terminal-width.ts';
import type { Command } from '../command.ts';

export const command: Command = {
  name: 'compare',
  summary: 'Compare two results files with confidence intervals; exit 1 when the candidate regressed',
  usage: 'compare <baseline-results.json> <candidate-results.json> [--config FILE] [--json]',
  positionals: [
    { name: 'baseline-results.json', description: 'the reference run (a results.json or its run folder)', required: true },
    { name: 'candidate-results.json', description: 'the run to judge (a results.json or its run folder)', required: true },
  ],
  options: [
    {
      name: 'config',
      value: 'FILE',
      description: 'Take the gates (thresholds, overhead budgets, regression settings) from this config file',
    },
    { name: 'json', description: 'Print the analysis as JSON instead of the table' },
  ],
  details: [
    'Without --config the default regression gate applies: a change counts when the Mann–Whitney test over repetitions gives p ≤ 0.05 and the change is at least 5% and 0.05 ms.',
    'Modes other than the baseline are compared as their ratio to the baseline of the same run, which cancels machine drift.',
    'A comparison that cannot decide (too few repetitions to reach p ≤ alpha, or a change that may reach the minimum without significance) is inconclusive: ⚠, with the repetitions that would settle it.',
    'Exit codes: 0 no regression or inconclusive, 1 regression (or inconclusive with gates.regression.inconclusive: fail), 2 usage error or different scenarios, 3 invalid candidate run.',
  ].join('\n'),
  async run(context) {
    const [baselinePath, candidatePath] = context.args.positionals.map((p) => resolve(context.cwd, p)) as [string, string];
    if (context.args.positionals.length > 2) {
      throw new UsageError(
        `mesh-perf compare takes two files, got ${context.args.positionals.length}: ${context.args.positionals.join(' ')}`,
      );
    }
    const baseline = await readResultsFile(baselinePath);
    const candidate = await readResultsFile(candidatePath);
    if (baseline.run.id === candidate.run.id) {
      throw new UsageError(
        `${context.args.positionals[0]} and ${context.args.positionals[1]} hold the same run (${baseline.run.id}); compare a run with another run of the same scenario`,
      );
    }
    const scenarios = compareScenarios(baseline, candidate);
    if (scenarios.mismatched.length > 0 || scenarios.comparable.length === 0) {
      throw new UsageError(mismatchMessage(scenarios, baselinePath, candidatePath));
    }
    const gates = context.args.options.config
      ? (await loadConfig({ file: resolve(context.cwd, context.args.options.config) })).gates
      : undefined;
    const config = comparisonConfig(candidate, gates);
    const analysis = wordAnalysis(analyzeRun(candidate, { config, reference: [baseline] }));
    if (context.args.switches.has('json')) context.stdout(`${JSON.stringify(analysis, null, 2)}\n`);
    else {
      // Verdict and gate lines run to hundreds of characters: wrapped at the terminal's width
      // (table rows, whose columns are separated by runs of spaces, are left whole).
      const width = terminalWidth();
      const text = renderComparison(analysis, { baseline: baselinePath, candidate: candidatePath }, width);
      context.stdout(
        text
          .split('\n')
          .flatMap((line) => (/\S {2,}\S/.test(line) ? [line] : wrap(line, width)))
          .join('\n'),
      );
      const skipped = [
        ...scenarios.onlyInA.map((m) => `${m.mode} [${m.profile}] only in the baseline`),
        ...scenarios.onlyInB.map((m) => `${m.mode} [${m.profile}] only in the candidate`),
      ];
      if (skipped.length > 0) context.stdout(`Not compared: ${skipped.join('; ')}\n`);
    }
    return exitCodeFor(analysis.verdict, config.gates.regression.inconclusive);
  },
};

/** A results.json, or a run folder holding one. Errors name the path. */
export async function readResultsFile(path: string): Promise<RunResult> {
  let file = path;
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(`${path} does not exist; pass a results.json written by mesh-perf run, or its run folder`);
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const special = specialFileKind(info);
  if (special) throw new UsageError(`${path} is ${special}; pass a results.json file written by mesh-perf run, or its run folder`);
  if (info.isDirectory()) file = join(path, 'results.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${path} holds no results.json` : `cannot read ${file}: ${(error as Error).message}`);
  }
  return parseResultsJson(text, file);
}

/**
 * The config the comparison is judged with: the candidate's modes and baseline, the given gates or
 * the defaults. No confirmation round: two files cannot be re-run, so the first answer is final.
 */
export function comparisonConfig(candidate: RunResult, gates: Config['gates'] | undefined): Config {
  const names = [...new Set(candidate.modes.map((m) => m.name))];
  const base = validateConfig(
    {
      modes: names.map((name) => ({ name })),
      load: { rate: 1 },
      ...(names.includes(candidate.baseline) ? { baseline: candidate.baseline } : {}),
    },
    `modes of ${candidate.run?.id ?? 'the candidate'}`,
  );
  const chosen = gates ?? base.gates;
  return { ...base, gates: { ...chosen, regression: { ...chosen.regression, enabled: true, confirm: false } } };
}

function mismatchMessage(scenarios: ReturnType<typeof compareScenarios>, baselinePath: string, candidatePath: string): string {
  if (scenarios.mismatched.length === 0) {
    const a = scenarios.onlyInA.map((m) => `${m.mode} [${m.profile}]`).join(', ');
    const b = scenarios.onlyInB.map((m) => `${m.mode} [${m.profile}]`).join(', ');
    return `cannot compare ${candidatePath} with ${baselinePath}: they have no mode and load profile in common (baseline: ${a || 'none'}; candidate: ${b || 'none'})`;
  }
  // Run-wide fields (runner class, platform, suite) differ for every mode: say them once.
  const lines = new Map<string, string[]>();
  for (const entry of scenarios.mismatched) {
    for (const line of explainDifferences(entry.differences))
      lines.set(line, [...(lines.get(line) ?? []), `${entry.mode} [${entry.profile}]`]);
  }
  const all = scenarios.mismatched.length;
  const detail = [...lines.entries()].map(([line, where]) => `  - ${line}${where.length === all ? '' : ` (for ${where.join(', ')})`}`);
  return [
    `cannot compare ${candidatePath} with ${baselinePath}: they measure different scenarios, so a difference would not mean a regression:`,
    ...detail,
    'Compare runs of the same suite, load profile, workload, platform and runner class.',
  ].join('\n');
}
