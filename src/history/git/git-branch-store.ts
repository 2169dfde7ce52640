// The gh-pages backend. Every write is fetch → plan (merge records by run id) → commit → push
// without force; when another writer pushed first, fetch again and re-plan on top of their
// commit, after a jittered, growing pause, a bounded number of times. Nothing is pushed until
// every file the plan reads has been validated, so a damaged branch is reported, not rewritten.
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { ConfirmationRecord } from '../../confirm/record.ts';
import type { RunResult } from '../../results/types.ts';
import type { SiteScripts } from '../../site/pages.ts';
import { loadSiteScripts } from '../../site/scripts.ts';
import { EnvironmentError, MeshPerfError, UsageError } from '../../util/errors.ts';
import type { Logger } from '../../util/log.ts';
import { redactText } from '../../util/redact.ts';
import type { SuiteChangePoints } from '../change-points.ts';
import { planConfirmations } from '../confirm-plan.ts';
import { StoreAccessError } from '../errors.ts';
import { changePointsFromTree, confirmationsFromTree, listFromTree } from '../list.ts';
import { type PublishPlan, planPublish } from '../publish-plan.ts';
import { type ChangeSink, type RebuildSummary, rebuildStore } from '../rebuild-plan.ts';
import type { Retention } from '../retention.ts';
import { hasChanges, type StoreTree } from '../tree.ts';
import type { ConfirmationOutcome, HistoryQuery, PublishOutcome, ResultStore } from '../types.ts';
import { backoffDelayMs } from './backoff.ts';
import { Git, GitCommandError, type GitCredentials } from './git.ts';
import { GitSession } from './session.ts';

export interface GitBranchStoreOptions {
  url: string;
  branch: string;
  /** Token for HTTPS remotes, sent as an HTTP header scoped to the remote's origin. */
  token?: string;
  adopt?: boolean;
  retention?: Retention;
  /** How long per-second timelines stay in stored runs; undefined keeps them. */
  timelineRetention?: Retention;
  /** Chart.js source for the dashboard asset and reports. */
  chartJs: () => Promise<string>;
  /** The run page's and dashboard's scripts (default: site/scripts.ts). */
  scripts?: () => Promise<SiteScripts>;
  log?: Logger;
  now?: () => Date;
  maxAttempts?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export class GitBranchStore implements ResultStore {
  private readonly git: Git;

  constructor(private readonly options: GitBranchStoreOptions) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(options.branch) || options.branch.includes('..') || options.branch.endsWith('/')) {
      throw new UsageError(
        `history branch ${JSON.stringify(options.branch)} is not a valid branch name; expected something like "gh-pages"`,
      );
    }
    this.git = new Git(credentialsFor(options.url, options.token));
  }

  describe(): string {
    return `${redactText(this.options.url)} (branch ${this.options.branch})`;
  }

  async list(query: HistoryQuery): Promise<RunResult[]> {
    return this.withSession(true, async (session) => {
      const head = await this.step(() => session.fetch());
      if (!head) return [];
      const tree = session.tree(head);
      return this.step(() => listFromTree(tree, query, this.describe()));
    });
  }

  async changePoints(suite: string, branch: string): Promise<SuiteChangePoints> {
    return this.withSession(true, async (session) => {
      const head = await this.step(() => session.fetch());
      // A mistyped branch must not read as a history with no change points.
      if (!head) return { series: [], changePoints: [], absent: 'the branch does not exist' };
      const tree = session.tree(head);
      return this.step(() => changePointsFromTree(tree, suite, branch, this.describe()));
    });
  }

  async confirmations(suite: string): Promise<ConfirmationRecord[]> {
    return this.withSession(true, async (session) => {
      const head = await this.step(() => session.fetch());
      if (!head) return [];
      return this.step(() => confirmationsFromTree(session.tree(head), suite, this.describe()));
    });
  }

  async recordConfirmations(records: ConfirmationRecord[]): Promise<ConfirmationOutcome> {
    const options = await this.planOptions();
    let recorded: ConfirmationOutcome | undefined;
    await this.writeWithRetry(true, async (tree, staging) => {
      const plan = await planConfirmations(tree, records, options);
      for (const [path, text] of plan.changes.writes) await staging.write(path, text);
      for (const path of plan.changes.deletes) await staging.remove(path);
      recorded = { attempts: 0, recorded: plan.recorded, warnings: plan.warnings };
      const names = records.map((r) => `${r.suite}/${r.mode} at ${r.after}: ${r.verdict}`);
      return {
        changed: hasChanges(plan.changes),
        message: `mesh-perf: record the confirmation of ${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}\n`,
        outcome: { attempts: 0, added: [], unchanged: [], pruned: [], warnings: plan.warnings },
      };
    }).then((outcome) => {
      recorded = { ...recorded!, attempts: outcome.attempts, ...(outcome.commit ? { commit: outcome.commit } : {}) };
    });
    return recorded!;
  }

  async publish(results: RunResult[]): Promise<PublishOutcome> {
    const options = await this.planOptions();
    return this.writeWithRetry(true, async (tree, staging) => {
      const plan = await planPublish(tree, results, { ...options, now: (this.options.now ?? (() => new Date()))() });
      for (const [path, text] of plan.changes.writes) await staging.write(path, text);
      for (const path of plan.changes.deletes) await staging.remove(path);
      return {
        changed: hasChanges(plan.changes),
        message: publishMessage(plan, results),
        outcome: {
          attempts: 0,
          added: plan.added,
          unchanged: plan.unchanged,
          pruned: plan.pruned,
          compacted: plan.compacted,
          changePoints: plan.newChangePoints,
          warnings: plan.warnings,
        },
      };
    });
  }

  /** Re-renders the dashboard, data files and every run report on the branch. */
  async rebuild(): Promise<PublishOutcome & { summary: RebuildSummary }> {
    const options = await this.planOptions();
    let summary: RebuildSummary | undefined;
    const result = await this.writeWithRetry(false, async (tree, staging) => {
      summary = await rebuildStore(tree, options, staging);
      return {
        changed: summary.written > 0 || summary.pruned.length > 0,
        message: summary.converted
          ? `mesh-perf: convert the history to layout 2 (${summary.converted} runs; old report addresses redirect to run.html)\n`
          : `mesh-perf: rebuild the dashboard, index and ${summary.runs} runs\n`,
        outcome: {
          attempts: 0,
          added: [],
          unchanged: [],
          pruned: summary.pruned,
          compacted: summary.compacted,
          warnings: summary.warnings,
        },
      };
    });
    return { ...result, summary: summary! };
  }

  /** Writes the branch as a static site into a sink (for `mesh-perf report --out`), reports re-rendered. */
  async exportSite(sink: ChangeSink): Promise<RebuildSummary> {
    const options = await this.planOptions();
    return this.withSession(false, async (session) => {
      const head = await this.step(() => session.fetch());
      const tree = session.tree(head);
      return this.step(() => rebuildStore(tree, { ...options, includeAll: true }, sink));
    });
  }

  private async planOptions() {
    return {
      storeLabel: this.describe(),
      adopt: this.options.adopt ?? false,
      now: (this.options.now ?? (() => new Date()))(),
      chartJs: await this.options.chartJs(),
      scripts: await (this.options.scripts ?? loadSiteScripts)(),
      ...(this.options.retention ? { retention: this.options.retention } : {}),
      ...(this.options.timelineRetention ? { timelineRetention: this.options.timelineRetention } : {}),
    };
  }

  private async writeWithRetry(
    partial: boolean,
    apply: (tree: StoreTree, staging: ChangeSink) => Promise<{ changed: boolean; message: string; outcome: PublishOutcome }>,
  ): Promise<PublishOutcome> {
    const maxAttempts = this.options.maxAttempts ?? 12;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    return this.withSession(partial, async (session) => {
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const head = await this.step(() => session.fetch());
        const tree = session.tree(head);
        const staging = session.stage();
        const { changed, message, outcome } = await this.step(() => apply(tree, staging));
        if (!changed) return { ...outcome, attempts: attempt };
        const commit = await this.step(() => staging.commit(head, message));
        if ((await this.step(() => session.push(commit))) === 'ok') return { ...outcome, commit, attempts: attempt };
        if (attempt === maxAttempts) break;
        const delay = backoffDelayMs(attempt, this.options.random ?? Math.random);
        this.options.log?.info(
          `${this.options.branch} moved while publishing (another writer pushed first); retrying on top of it in ${delay} ms (attempt ${attempt + 1} of ${maxAttempts})`,
        );
        await sleep(delay);
      }
      throw new StoreAccessError(
        `history store ${this.describe()}: the branch kept moving under concurrent writers; gave up after ${maxAttempts} attempts and published nothing. ` +
          'Serialize publishing jobs (a workflow `concurrency:` group) or publish from a single final job',
      );
    });
  }

  private async withSession<T>(partial: boolean, fn: (session: GitSession) => Promise<T>): Promise<T> {
    const session = await this.step(() => GitSession.open(this.git, this.options.url, this.options.branch, { partial }));
    try {
      return await fn(session);
    } finally {
      await session.close();
    }
  }

  /** Runs one git step and turns git's stderr into an error a user can act on. */
  private async step<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof MeshPerfError) throw error;
      if (error instanceof GitCommandError) {
        const classified = classifyGitError(error, this.describe(), this.options.branch);
        classified.message += await fullDiskNote(error);
        throw classified;
      }
      // Not git's (a staging file the disk had no room for): before any push, so nothing was written.
      throw new EnvironmentError(`history store ${this.describe()}: ${(error as Error).message}. Nothing was written`);
    }
  }
}

function publishMessage(plan: PublishPlan, results: RunResult[]): string {
  const ids = results.map((r) => `${r.run.suite}/${r.run.id}`);
  const head = `mesh-perf: publish ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
  const pruned = plan.pruned.length ? `\n\nRetention removed ${plan.pruned.length} run(s).` : '';
  return `${head}${pruned}\n`;
}

export function credentialsFor(url: string, token: string | undefined): GitCredentials | undefined {
  if (!token) return undefined;
  const match = /^(https?:\/\/[^/]+\/)/i.exec(url);
  return match ? { origin: redactText(match[1]!).replace('***@', ''), token } : undefined;
}

/**
 * git does not always say why a write failed ("failed to write new configuration file …config.lock"
 * when the disk is full): when it failed to write and the session's disk (the temporary
 * directory) has under 1 MiB left, say so.
 */
async function fullDiskNote(error: GitCommandError): Promise<string> {
  if (/no space left on device/i.test(error.stderr)) return '';
  if (!/(failed|unable|could not|cannot) (to )?(write|create|set)|write error|short write/i.test(error.stderr)) return '';
  const dir = tmpdir();
  const disk = await statfs(dir).catch(() => undefined);
  if (!disk) return '';
  const free = disk.bavail * disk.bsize;
  return free < 1024 * 1024 ? ` (no space left on device: ${free} bytes free in ${dir}, where the session's repository is written)` : '';
}

/** The last lines git printed about a failed command, for a one-line message. */
export function gitSaid(error: GitCommandError): string {
  const lines = error.stderr.trim().split('\n').filter(Boolean);
  // The server's own reason ("remote: error: GH006: Protected branch update failed …") comes
  // before git's summary lines: keep it, or the message says only "pre-receive hook declined".
  const server = lines.filter((l) => /^remote: (error|fatal)\b/i.test(l)).slice(0, 2);
  // git's own fatal line ("unable to write loose object file: No space left on device") may come
  // before what the command printed on stdout (hash-object's ids), which the error carries after it.
  const own = lines.filter((l) => /^(fatal|error):/i.test(l) && !server.includes(l)).slice(-2);
  const named = [...server, ...own];
  return [...named, ...lines.slice(-3).filter((l) => !named.includes(l))].join(' | ') || error.message;
}

/** A user-facing error for a failed git step; the git error stays its cause (readers quote gitSaid). */
export function classifyGitError(error: GitCommandError, store: string, branch?: string): MeshPerfError {
  const classified = classify(error, store, branch);
  classified.cause = error;
  return classified;
}

function classify(error: GitCommandError, store: string, branch?: string): MeshPerfError {
  const said = gitSaid(error);
  if (
    /could not read (Username|Password)|terminal prompts disabled|Authentication failed|HTTP (Basic: )?Access denied|The requested URL returned error: 40[13]|Permission denied \(publickey|Invalid username or password|Write access to repository not granted|remote: Permission to .* denied/i.test(
      error.stderr,
    )
  ) {
    return new StoreAccessError(
      `history store ${store} refused access (git said: ${said}). Nothing was written. For HTTPS stores set MESH_PERF_STORE_TOKEN ` +
        '(or GITHUB_TOKEN, with permissions: contents: write); for git@ URLs load an SSH key that may push',
    );
  }
  if (
    /does not appear to be a git repository|not a git repository|Repository not found|repository .* not found|returned error: 404|Could not resolve host|unable to access|No such file or directory|not found/i.test(
      error.stderr,
    )
  ) {
    return new UsageError(
      `history store ${store} is not a git repository that can be reached (git said: ${said}). Nothing was written. ` +
        'Expected a git URL such as https://github.com/org/repo.git or git@github.com:org/repo.git, or the path of a git repository; ' +
        'for a plain local folder pass a directory path',
    );
  }
  if (/protected branch|hook declined|pre-receive hook|GH006|GH013|rule violations/i.test(error.stderr)) {
    // GitHub's branch protection (GH006) and rulesets (GH013) refuse the push itself: the token
    // could read and write the repository, the branch's rules stopped it.
    return new StoreAccessError(
      `history store ${store} rejected the push to ${branch ? `branch ${branch}` : 'the history branch'} (git said: ${said}). Nothing was written. ` +
        `The branch is protected against this token: let it push there (add GitHub Actions, or the account of MESH_PERF_STORE_TOKEN, to the bypass list of the branch protection rule or ruleset that covers ${branch ?? 'it'}), ` +
        'or keep the history on a branch no rule covers (history-branch); the job also needs permissions: contents: write',
    );
  }
  return new StoreAccessError(`history store ${store}: git ${error.args[0] ?? ''} failed (git said: ${said}). Nothing was written`);
}
