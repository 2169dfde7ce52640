// What a failed git step's error quotes of git (gitSaid): the server's reason and git's own fatal
// line first, whatever the command printed after them (hash-object's ids on stdout, which the
// error carries after stderr) last. Captured from git 2.39 on a full tmpfs:
// `git hash-object -w --stdin-paths` printed one id, then failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GitCommandError } from '../../src/history/git/git.ts';
import { gitSaid } from '../../src/history/git/git-branch-store.ts';

const cases: { name: string; stderr: string; said: string }[] = [
  {
    name: "a full disk: git's fatal line, not the ids printed after it",
    stderr:
      'fatal: unable to write loose object file: No space left on device\ne7b8b8169a2a03a976b59dac1a4f8433d3714822\n4cc891ccc8e0a67cb6a007ee53b4315f7a859205\n52f7d05d3c3c8228bf5fe041160ac658b31d8e98\n',
    said: 'fatal: unable to write loose object file: No space left on device | e7b8b8169a2a03a976b59dac1a4f8433d3714822 | 4cc891ccc8e0a67cb6a007ee53b4315f7a859205 | 52f7d05d3c3c8228bf5fe041160ac658b31d8e98',
  },
  {
    name: "a protected branch: the server's reason before git's summary",
    stderr:
      "remote: error: GH006: Protected branch update failed for refs/heads/gh-pages.\nTo https://github.com/o/r.git\n ! [remote rejected] abc -> gh-pages (protected branch hook declined)\nerror: failed to push some refs to 'https://github.com/o/r.git'\n",
    said: "remote: error: GH006: Protected branch update failed for refs/heads/gh-pages. | error: failed to push some refs to 'https://github.com/o/r.git' | To https://github.com/o/r.git |  ! [remote rejected] abc -> gh-pages (protected branch hook declined)",
  },
  { name: 'plain lines: the last three', stderr: 'a\nb\nc\nd\n', said: 'b | c | d' },
];

for (const c of cases)
  test(c.name, () => {
    assert.equal(gitSaid(new GitCommandError(['x'], 1, c.stderr)), c.said);
  });
