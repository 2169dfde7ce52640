// Refuses a config file that floods one mapping with unknown keys, before the YAML parser sees it.
// The parser needs ~20 µs a line (100k keys inside `load:` took 3.7 s, 20k about 1 s), so a line
// scan that follows block indentation finds such a mapping in milliseconds and answers the same
// message validation would, bounded. It only ever refuses: anything it cannot place for certain
// (flow collections, multi-line quoted values, documents markers, tabs) leaves the file to the
// parser, which is slower but right.
import { configSchema } from './schema.ts';
import { ConfigError, formatPath, knownKeysAt } from './validate.ts';

/** More unknown keys than this in one mapping and the file is not a mesh-perf config there. */
const KEY_FLOOD = 200;
const NAMED = 5;
/** A plain (unquoted) block key and what follows it on its line. */
const KEY_LINE = /^([^\s#:'"{}[\],&*!|>%@`-][^:\n]*?):(?:[ \t]+(.*))?$/;

interface Frame {
  kind: 'map' | 'seq';
  /** Column of this collection's keys (map) or dashes (seq). */
  col: number;
  /** Config path of this collection; undefined when it could not be placed for certain. */
  path: PropertyKey[] | undefined;
  /** seq: index of the current item. */
  item: number;
  /** map: the last key, and whether its value is a block opened on the following lines. */
  lastKey?: string;
  opens: boolean;
  known?: ReadonlySet<string>;
  unknown: { key: string; line: number }[];
  unknownCount: number;
}

export function refuseKeyFlood(text: string, source: string): void {
  const flooded = floodedMappings(text);
  if (flooded.length === 0) return;
  throw new ConfigError(
    source,
    flooded.map((frame) => {
      const named = frame.unknown.map((u) => `"${u.key}" (line ${u.line})`).join(', ');
      const where = frame.path!.length === 0 ? 'top-level keys' : 'keys';
      const more = (frame.unknownCount - frame.unknown.length).toLocaleString('en-US');
      return {
        path: formatPath(frame.path!),
        message: `unknown keys ${named} and ${more} more unknown ${where} (expected one of: ${[...frame.known!].join(', ')})`,
      };
    }),
  );
}

function floodedMappings(text: string): Frame[] {
  const stack: Frame[] = [];
  const flooded: Frame[] = [];
  const knownCache = new Map<string, ReadonlySet<string>>();
  let blockScalarAbove = -1;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.endsWith('\r') ? lines[n]!.slice(0, -1) : lines[n]!;
    let col = 0;
    while (line.charCodeAt(col) === 32) col++;
    let rest = line.slice(col);
    if (rest === '' || rest.startsWith('#')) continue;
    // Lines of a block scalar (`body: |`) are text, however much they look like keys.
    if (blockScalarAbove >= 0 && col > blockScalarAbove) continue;
    blockScalarAbove = -1;
    // A leading "---" starts the one document; a later one (or "...", a directive) is left to the parser.
    if (col === 0 && stack.length === 0 && /^---\s*(#.*)?$/.test(rest)) continue;
    if (rest.startsWith('\t') || (col === 0 && /^(---|\.\.\.|%)/.test(rest))) return [];
    while (stack.length > 0 && stack.at(-1)!.col > col) stack.pop();
    let c = col;
    while (rest === '-' || rest.startsWith('- ')) {
      let top = stack.at(-1);
      if (top?.kind === 'seq' && top.col === c) top.item++;
      else {
        top = { kind: 'seq', col: c, path: childPath(top), item: 0, opens: false, unknown: [], unknownCount: 0 };
        stack.push(top);
      }
      const after = rest.slice(1);
      const pad = after.length - after.trimStart().length;
      rest = after.slice(pad);
      c += 1 + pad;
      if (rest === '') break;
    }
    if (rest === '' || rest.startsWith('-')) continue;
    const match = KEY_LINE.exec(rest);
    let top = stack.at(-1);
    if (!match) {
      // A scalar, a quoted key, a flow collection: what follows it cannot be placed.
      if (top?.kind === 'map') top.opens = false;
      if (/^[|>]/.test(rest)) {
        if (!top) return [];
        blockScalarAbove = top.col;
      } else if (/^["'[{]/.test(rest) && !closes(rest)) return [];
      continue;
    }
    // A key at the column of a sequence's dashes ends that (compact) sequence.
    if (top?.kind === 'seq' && top.col === c) {
      stack.pop();
      top = stack.at(-1);
    }
    if (!top || top.col < c) {
      const path = top ? childPath(top) : [];
      top = { kind: 'map', col: c, path, item: 0, opens: false, unknown: [], unknownCount: 0, known: knownAt(path, knownCache) };
      stack.push(top);
    }
    const key = match[1]!.trimEnd();
    const value = (match[2] ?? '').trim();
    top.lastKey = key;
    top.opens = value === '' || value.startsWith('#') || /^[&!]\S*(\s+#.*)?$/.test(value);
    if (/^[|>]/.test(value)) blockScalarAbove = c;
    else if (/^["'[{]/.test(value) && !closes(value)) return [];
    if (top.known && top.known.size > 0 && key !== '<<' && !top.known.has(key)) {
      if (top.unknown.length < NAMED) top.unknown.push({ key, line: n + 1 });
      if (++top.unknownCount === KEY_FLOOD + 1) flooded.push(top);
    }
  }
  return flooded;
}

/** The path of the block a new collection below `parent` is the value of. */
function childPath(parent: Frame | undefined): PropertyKey[] | undefined {
  if (!parent) return [];
  if (!parent.path) return undefined;
  if (parent.kind === 'seq') return [...parent.path, parent.item];
  if (!parent.opens || parent.lastKey === undefined) return undefined;
  parent.opens = false;
  return [...parent.path, parent.lastKey];
}

function knownAt(path: PropertyKey[] | undefined, cache: Map<string, ReadonlySet<string>>): ReadonlySet<string> | undefined {
  if (!path) return undefined;
  const key = path.map((p) => (typeof p === 'number' ? '[]' : String(p))).join('.');
  let known = cache.get(key);
  if (!known) {
    known = new Set(knownKeysAt(configSchema, path));
    cache.set(key, known);
  }
  return known;
}

/** A quoted or flow value that ends on its own line (a trailing comment counts as not closed). */
function closes(value: string): boolean {
  const close = { '"': '"', "'": "'", '[': ']', '{': '}' }[value[0] as '"' | "'" | '[' | '{'];
  return value.length > 1 && value.endsWith(close) && !(value[0] === '"' && value.endsWith('\\"'));
}
