// Where the action keeps history when nobody says: this repository's own history branch, as an
// adopter expects (the "vs base" column works with no configuration; writing still needs
// publish). action.yml must say the same thing the code does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { storeSpec } from '../../src/github/history.ts';
import { readGitHubEvent } from '../../src/github/event.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

test('without history.store the action uses the repository it runs in, and action.yml says so', () => {
  const event = readGitHubEvent(
    { GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'octo/app', GITHUB_EVENT_NAME: 'pull_request' },
    {},
  );
  assert.equal(storeSpec({ branch: 'gh-pages' }, event), 'https://github.example/octo/app.git');
  assert.equal(storeSpec({ branch: 'gh-pages', store: '/srv/history' }, event), '/srv/history');
  const description = (parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { description: string }> }).inputs[
    'history-store'
  ]!.description;
  assert.ok(!/else none/.test(description), `action.yml still says the default is none: ${description}`);
  assert.match(description, /Default the config's `history\.store`, else this repository's own history branch/);
});
