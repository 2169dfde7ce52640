// Redaction for files another program wrote into an output directory (kind's exported logs kept
// beside a failed run's results and uploaded with them): every text file under the directory is
// rewritten through redactText, so a token or URL credential that reached a pod's log or the
// kubelet's journal leaves the machine masked like every other output. Binary files (a NUL byte
// in their first 8 KiB) and files too large to read whole are removed instead: what cannot be
// checked is not uploaded.
import { lstat, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactText } from './redact.ts';

/** Larger files are removed unread (kind's logs of a short run are a few MiB in all). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const BINARY_SNIFF_BYTES = 8192;

export interface RedactedTree {
  /** Text files in which something was masked. */
  redacted: string[];
  /** Files removed because they could not be checked (binary, too large, not a regular file). */
  removed: string[];
}

export async function redactTree(dir: string): Promise<RedactedTree> {
  const out: RedactedTree = { redacted: [], removed: [] };
  await walk(dir, out);
  return out;
}

async function walk(dir: string, out: RedactedTree): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      await walk(path, out);
      continue;
    }
    // lstat, not stat: a symlink is removed, never followed out of the directory.
    const stat = await lstat(path);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) {
      await rm(path, { force: true });
      out.removed.push(path);
      continue;
    }
    const bytes = await readFile(path);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      await rm(path, { force: true });
      out.removed.push(path);
      continue;
    }
    const text = bytes.toString('utf8');
    const masked = redactText(text);
    if (masked !== text) {
      await writeFile(path, masked);
      out.redacted.push(path);
    }
  }
}
