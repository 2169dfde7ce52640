// The dashboard's reader of a store's data files (assets/store-data.js, bundled by
// site/scripts.ts): index shards and change points arrive as scripts calling
// meshPerfStore.index(…) / .changePoints(…); each shard is checked and decoded by the store's own
// code (history/suite-index.ts) and gathered per suite into window.meshPerfData, which the
// dashboard's client.js draws from.
import { withFields } from '../history/change-points.ts';
import { runPageHref } from '../history/layout.ts';
import { readShard, sortEntries, type IndexEntry } from '../history/suite-index.ts';
import './window.ts';

interface SuiteData {
  suite: string;
  /** Loaded runs, oldest first, each with the URL of its page. */
  runs: (IndexEntry & { report: string })[];
  /** Months loaded so far. */
  months: string[];
  changePoints?: unknown[];
  unsplit?: unknown[];
  analysedRuns?: number;
  mainBranch?: string;
  /** Body file of each run a change point names. */
  files?: Record<string, string>;
  /** Every other field that changed, per pair of runs (pairKey): merged into each change point's `changed`. */
  fields?: Record<string, unknown>;
  /** Data files that could not be read, with why. */
  errors: string[];
}

const data = (window.meshPerfData ??= {}) as Record<string, SuiteData>;

function suiteData(suite: string): SuiteData {
  return (data[suite] ??= { suite, runs: [], months: [], errors: [] });
}

window.meshPerfStore = {
  ...window.meshPerfStore,
  index(doc: { suite?: unknown; month?: unknown }): void {
    const suite = String(doc?.suite);
    const month = String(doc?.month);
    const target = suiteData(suite);
    const parsed = readShard(doc, suite, month);
    if (!parsed.ok) {
      target.errors.push(`index shard ${suite} ${month} ${parsed.reason}`);
      return;
    }
    if (target.months.includes(month)) return;
    target.months.push(month);
    const runPage = window.meshPerfRunPage ?? 'run.html';
    const added = parsed.entries.map((e) => ({ ...e, report: runPageHref(e.file, runPage) }));
    target.runs = sortEntries([...target.runs, ...added]) as SuiteData['runs'];
  },
  changePoints(doc: Partial<SuiteData>): void {
    const target = suiteData(String(doc?.suite));
    target.changePoints = Array.isArray(doc.changePoints) ? withFields(doc.changePoints, doc.fields) : [];
    target.unsplit = Array.isArray(doc.unsplit) ? doc.unsplit : [];
    if (typeof doc.analysedRuns === 'number') target.analysedRuns = doc.analysedRuns;
    if (typeof doc.mainBranch === 'string') target.mainBranch = doc.mainBranch;
    target.files = doc.files ?? {};
  },
};
