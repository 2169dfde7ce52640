// Errors of the history store. A damaged file on the branch stops everything (exit 3) and names
// the file: silently treating it as empty is how other tools lost years of history.
import { EnvironmentError, UsageError } from '../util/errors.ts';

export class StoreCorruptError extends EnvironmentError {
  constructor(
    readonly store: string,
    readonly path: string,
    reason: string,
  ) {
    super(
      `history store ${store}: ${path} ${reason}. Nothing was published. Restore the file from the branch history ` +
        `(git log -- ${path}), or delete it to have it rebuilt (an index is rebuilt from the run files; a deleted run file is dropped)`,
    );
    this.name = 'StoreCorruptError';
  }
}

/** The branch or directory holds files that are not a mesh-perf store. */
export class StoreNotAdoptedError extends UsageError {
  constructor(store: string, sample: string[]) {
    super(
      `history store ${store} already holds files that are not a mesh-perf history (e.g. ${sample.slice(0, 3).join(', ')}), ` +
        `and has no mesh-perf.json marker. Nothing was written. Use another branch/directory, or adopt it to add the history beside ` +
        `those files: input adopt: true (the action or mesh-perf-publish.yml), history.adopt: true in the config, or --adopt on the CLI`,
    );
    this.name = 'StoreNotAdoptedError';
  }
}

export class StoreAccessError extends EnvironmentError {
  constructor(message: string) {
    super(message);
    this.name = 'StoreAccessError';
  }
}
