// Which strings of a kubeconfig must be masked in logs. Pure. GitHub masks by exact match, so a
// kubeconfig handed in as one secret is not enough: a token printed on its own, or a
// base64-decoded key, would slip through. We mask every credential leaf, their decoded forms,
// and every line of the decoded PEM blocks.
import { parseDocument } from 'yaml';
import { UsageError } from '../util/errors.ts';

/** Keys under users[].user whose values are credentials. */
const CREDENTIAL_KEYS = new Set(['token', 'password', 'username', 'client-key-data', 'client-certificate-data']);
/** Sections whose every string leaf is treated as a credential (tokens, secrets, env of plugins). */
const OPAQUE_SECTIONS = new Set(['exec', 'auth-provider']);

export function kubeconfigSecrets(text: string): string[] {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    // Never echo the parser's message: it quotes the offending line, which may be a credential.
    const line = doc.errors[0]!.linePos?.[0]?.line;
    throw new UsageError(
      `input kubeconfig is not valid YAML${line ? ` (line ${line})` : ''}; pass the kubeconfig file's content, e.g. kubeconfig: \${{ secrets.KUBECONFIG }}`,
    );
  }
  const root = doc.toJS() as unknown;
  if (!isObject(root)) throw new UsageError('input kubeconfig: expected a kubeconfig (a YAML mapping with clusters, users, contexts)');
  const found = new Set<string>();
  for (const entry of asArray(root.users)) {
    const user = isObject(entry) ? entry.user : undefined;
    if (!isObject(user)) continue;
    for (const [key, value] of Object.entries(user)) {
      if (CREDENTIAL_KEYS.has(key)) collectStrings(value, found);
      if (OPAQUE_SECTIONS.has(key)) collectStrings(value, found);
    }
  }
  // Client CAs are not secret, but some kubeconfigs embed the key with them; mask cheaply.
  for (const entry of asArray(root.clusters)) {
    const cluster = isObject(entry) ? entry.cluster : undefined;
    if (isObject(cluster)) collectStrings(cluster['certificate-authority-data'], found);
  }
  const out = new Set<string>();
  for (const value of found) for (const variant of variants(value)) out.add(variant);
  return [...out].sort((a, b) => b.length - a.length);
}

/** The value, its base64 decoding when it is base64 text, and each line of multi-line forms. */
function variants(value: string): string[] {
  const out = [value];
  const decoded = decodeBase64(value);
  if (decoded !== undefined) out.push(decoded);
  for (const text of [...out]) {
    if (text.includes('\n')) {
      for (const line of text.split(/\r?\n/)) {
        const trimmed = line.trim();
        // PEM armour lines ("-----BEGIN ...") are public boilerplate; masking them hides nothing.
        if (trimmed.length >= 8 && !trimmed.startsWith('-----')) out.push(trimmed);
      }
    }
  }
  return out.filter((v) => v.trim().length > 0);
}

function decodeBase64(value: string): string | undefined {
  const compact = value.replace(/\s+/g, '');
  if (compact.length < 16 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  const decoded = Buffer.from(compact, 'base64').toString('utf8');
  // Only keep decodings that are text (PEM, tokens); binary noise is not printable anyway.
  return /^[\x09\x0a\x0d\x20-\x7e]+$/.test(decoded) ? decoded : undefined;
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    if (value.length > 0) into.add(value);
  } else if (typeof value === 'number') {
    into.add(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, into);
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      // exec.env is a list of {name, value} and auth-provider has {name, config}: names are public.
      if (key === 'name') continue;
      // The plugin's command and apiVersion are not secrets and appear in error messages.
      if (key === 'command' || key === 'apiVersion' || key === 'interactiveMode' || key === 'provideClusterInfo' || key === 'installHint')
        continue;
      // Plugin args are mostly words ("eks", "get-token", a cluster name) that would blank out
      // unrelated log text if masked; a long opaque argument is treated as a credential.
      if (key === 'args' && Array.isArray(item)) {
        for (const arg of item) if (typeof arg === 'string' && !arg.startsWith('-') && arg.length >= 20) into.add(arg);
        continue;
      }
      collectStrings(item, into);
    }
  }
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
