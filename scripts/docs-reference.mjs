// The generated reference of docs/: every configuration key with its type, default and description
// (docs/configuration.md, from the JSON Schema the zod schema generates, the same one written to
// schema/mesh-perf.schema.json), and the inputs and outputs of the action, its sub-actions and the
// reusable workflows, with the copyable callers in workflows/ (docs/action.md, from action.yml,
// setup/action.yml, comment/action.yml, .github/workflows/ and workflows/), and README's workflow
// examples, which are the daily and PR-gate callers of workflows/ as shipped. Each generated part
// sits between `<!-- NAME:start -->` and `<!-- NAME:end -->` in its page; the prose around it is
// written by hand. scripts/build.mjs writes the pages; test/docs/generated-fresh.test.ts and
// test/build/dist-fresh.test.ts fail when a committed page differs from what this renders.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The markers around one generated part of a page. */
export function markers(name) {
  return [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
}

/** The page with the part named `name` replaced by `content`; throws when its markers are missing. */
export function replacePart(page, name, content, file = 'the page') {
  const [start, end] = markers(name);
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < 0 || to < from)
    throw new Error(`${file} needs the markers ${start} and ${end} (in that order) around the ${name} part`);
  return `${page.slice(0, from + start.length)}\n${content}\n${page.slice(to)}`;
}

// ---- action.yml, setup/action.yml, comment/action.yml ----

/** Markdown tables of an action's inputs and outputs. */
export function renderActionTables(actionYamlText) {
  const action = parse(actionYamlText);
  const inputs = Object.entries(action.inputs ?? {}).map(([name, spec]) => [
    `\`${name}\``,
    cell(spec.description),
    spec.default === undefined || spec.default === '' ? '' : `\`${String(spec.default)}\``,
  ]);
  const outputs = Object.entries(action.outputs ?? {}).map(([name, spec]) => [`\`${name}\``, cell(spec.description)]);
  return {
    inputs: table(['input', 'description', 'default value'], inputs),
    outputs: table(['output', 'description'], outputs),
  };
}

// ---- reusable workflows (.github/workflows/*.yml with on.workflow_call) ----

/** Inputs, secrets and outputs of a reusable workflow, as markdown tables; undefined when it is not one. */
export function renderReusableWorkflow(workflowYamlText) {
  const call = triggers(parse(workflowYamlText)).workflow_call;
  if (call === undefined) return undefined;
  const parts = [];
  const inputs = Object.entries(call?.inputs ?? {});
  if (inputs.length > 0)
    parts.push(
      table(
        ['input', 'type', 'description', 'default value'],
        inputs.map(([name, spec]) => [
          `\`${name}\``,
          `${spec.type ?? ''}${spec.required ? ', required' : ''}`,
          cell(spec.description),
          spec.default === undefined || spec.default === '' ? '' : `\`${String(spec.default)}\``,
        ]),
      ),
    );
  const secrets = Object.entries(call?.secrets ?? {});
  if (secrets.length > 0)
    parts.push(
      table(
        ['secret', 'description'],
        secrets.map(([name, spec]) => [`\`${name}\`${spec?.required ? ' (required)' : ''}`, cell(spec?.description)]),
      ),
    );
  const outputs = Object.entries(call?.outputs ?? {});
  if (outputs.length > 0)
    parts.push(
      table(
        ['output', 'description'],
        outputs.map(([name, spec]) => [`\`${name}\``, cell(spec?.description)]),
      ),
    );
  return parts.join('\n\n');
}

// ---- the copyable callers in workflows/ ----

/** One row per caller: its file, the events that start it, what it calls, and its header comment's first sentence. */
export function renderCallers(files) {
  const rows = files.map(({ path, text }) => {
    const workflow = parse(text);
    const uses = [
      ...new Set(
        Object.values(workflow.jobs ?? {}).flatMap((job) => [
          ...(job.uses ? [job.uses] : []),
          ...(job.steps ?? []).map((s) => s.uses).filter((u) => u && /mesh-perf-action/.test(u)),
        ]),
      ),
    ].map((u) => `\`${u.replace(/@.*$/, '')}\``);
    return [
      `[\`${path.split('/').pop()}\`](../${path})`,
      Object.keys(triggers(workflow))
        .map((e) => `\`${e}\``)
        .join(', '),
      uses.join(', '),
      cell(firstSentence(text)),
    ];
  });
  return table(['caller', 'runs on', 'calls', 'what it does'], rows);
}

function triggers(workflow) {
  const on = workflow?.on ?? workflow?.true;
  if (typeof on === 'string') return { [on]: null };
  if (Array.isArray(on)) return Object.fromEntries(on.map((e) => [e, null]));
  return on ?? {};
}

/** The first sentence of a YAML file's leading comment. */
function firstSentence(text) {
  const comment = [];
  for (const line of text.split('\n')) {
    const m = /^#\s?(.*)$/.exec(line);
    if (!m) break;
    comment.push(m[1]);
  }
  const joined = comment.join(' ').trim();
  const end = joined.search(/\.(\s|$)/);
  return end < 0 ? joined : joined.slice(0, end + 1);
}

// ---- the configuration (JSON Schema generated from src/config/schema.ts) ----

/**
 * Every key of the configuration: a table of the top-level scalars, then one section per
 * top-level object or list, each key as its dotted path (`modes[].local.hops`), with its type, its
 * default (or "required") and its description.
 */
export function renderConfigReference(jsonSchema) {
  const top = Object.entries(jsonSchema.properties ?? {});
  const required = new Set(jsonSchema.required ?? []);
  const isSection = (node) => objectOf(node) !== undefined;
  const out = [];
  out.push(
    table(
      ['key', 'type', 'default', 'description'],
      top.filter(([, node]) => !isSection(node)).map(([key, node]) => row(key, node, required.has(key))),
    ),
  );
  for (const [key, node] of top.filter(([, n]) => isSection(n))) {
    const rows = [row(key, node, required.has(key)), ...childRows(key, node)];
    out.push(`### \`${key}\`\n\n${table(['key', 'type', 'default', 'description'], rows)}`);
  }
  return out.join('\n\n');
}

/** The object schema whose keys a node holds (itself, its list's items, or a one-or-many union's object), with the path suffix. */
function objectOf(node) {
  if (node.type === 'object' && node.properties) return { object: node, suffix: '' };
  if (node.type === 'array' && node.items?.type === 'object' && node.items.properties) return { object: node.items, suffix: '[]' };
  // `load`: one profile or a list of them, the same keys either way.
  const alternatives = node.anyOf ?? [];
  const single = alternatives.find((a) => a.type === 'object' && a.properties);
  if (single && alternatives.every((a) => a === single || (a.type === 'array' && sameSchema(a.items, single))))
    return { object: single, suffix: '' };
  return undefined;
}

function childRows(path, node) {
  const found = objectOf(node);
  if (!found) return [];
  const { object, suffix } = found;
  const required = new Set(object.required ?? []);
  const entries = Object.entries(object.properties);
  const rows = [];
  for (let i = 0; i < entries.length; ) {
    const [key, child] = entries[i];
    // Siblings with the same keys (an A/B mode's `base` and `head` arms): each gets its row, their keys are listed once.
    let j = i + 1;
    while (j < entries.length && objectOf(child) && sameSchema(withoutDescription(entries[j][1]), withoutDescription(child))) j++;
    const group = entries.slice(i, j);
    for (const [name, node] of group) rows.push(row(`${path}${suffix}.${name}`, node, required.has(name)));
    const childPath = group.length > 1 ? `${path}${suffix}.{${group.map(([name]) => name).join(',')}}` : `${path}${suffix}.${key}`;
    rows.push(...childRows(childPath, child));
    i = j;
  }
  return rows;
}

function row(path, node, required) {
  return [`\`${path}\``, typeOf(node), required ? 'required' : defaultOf(node), cell(descriptionOf(node))];
}

function descriptionOf(node) {
  return node.description ?? node.anyOf?.find((a) => a.description)?.description ?? '';
}

function typeOf(node) {
  if (node.anyOf) {
    if (objectOf(node) && !(node.type === 'object' || node.type === 'array')) return 'object, or a list of them';
    return [...new Set(node.anyOf.map(typeOf))].join(' or ');
  }
  if (node.const !== undefined) return `\`${node.const}\``;
  if (node.enum) return node.enum.map((v) => `\`${v}\``).join(' \\| ');
  switch (node.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'integer':
      return `whole number${range(node)}`;
    case 'number':
      return `number${range(node)}`;
    case 'array':
      return node.items?.type === 'object' && node.items.properties ? 'list of objects' : `list of ${typeOf(node.items ?? {})}`;
    case 'object':
      if (node.properties) return 'object';
      if (node.additionalProperties && typeof node.additionalProperties === 'object') return `map of ${typeOf(node.additionalProperties)}`;
      return 'object';
    default:
      return 'any';
  }
}

function range(node) {
  const low = node.minimum ?? (node.exclusiveMinimum !== undefined ? `> ${number(node.exclusiveMinimum)}` : undefined);
  const high = node.maximum ?? (node.exclusiveMaximum !== undefined ? `< ${number(node.exclusiveMaximum)}` : undefined);
  if (typeof low === 'number' && typeof high === 'number') return `, ${number(low)}–${number(high)}`;
  const parts = [typeof low === 'number' ? `≥ ${number(low)}` : low, typeof high === 'number' ? `≤ ${number(high)}` : high].filter(Boolean);
  return parts.length > 0 ? `, ${parts.join(', ')}` : '';
}

function number(n) {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : String(n);
}

function defaultOf(node) {
  const value = node.default;
  if (value === undefined) return '';
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return ''; // the keys below carry theirs
  return `\`${flow(value)}\``;
}

/** A default as it would be written in YAML flow style. */
function flow(value) {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  return String(value);
}

function withoutDescription(node) {
  const { description: _, ...rest } = node;
  return rest;
}

function sameSchema(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// ---- shared ----

function cell(text) {
  return (
    String(text ?? '')
      .trim()
      .replace(/\s*\n\s*/g, ' ')
      .replace(/\|/g, '\\|')
      // GitHub would take <run-id> for an HTML tag and drop it; inside a code span it is shown as written.
      .split(/(`[^`]*`)/)
      .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
      .join('')
  );
}

function table(header, rows) {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

// ---- the pages ----

const yamlFiles = (root, dir) =>
  existsSync(join(root, dir))
    ? readdirSync(join(root, dir))
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => `${dir}/${f}`)
    : [];

/**
 * docs/action.md and docs/configuration.md as they should read: the committed pages with every
 * generated part rendered from the repository's sources and the configuration's JSON Schema.
 */
export function generatedDocs(root, configJsonSchema) {
  const read = (path) => readFileSync(join(root, path), 'utf8');
  let action = read('docs/action.md');
  const tables = renderActionTables(read('action.yml'));
  action = replacePart(action, 'inputs', tables.inputs, 'docs/action.md');
  action = replacePart(action, 'outputs', tables.outputs, 'docs/action.md');
  for (const sub of ['setup', 'comment']) {
    const subTables = renderActionTables(read(`${sub}/action.yml`));
    action = replacePart(action, `${sub}-inputs`, subTables.inputs, 'docs/action.md');
    action = replacePart(action, `${sub}-outputs`, subTables.outputs, 'docs/action.md');
  }
  for (const path of yamlFiles(root, '.github/workflows')) {
    const rendered = renderReusableWorkflow(read(path));
    if (rendered !== undefined) action = replacePart(action, `workflow:${path.split('/').pop()}`, rendered, 'docs/action.md');
  }
  action = replacePart(
    action,
    'callers',
    renderCallers(yamlFiles(root, 'workflows').map((path) => ({ path, text: read(path) }))),
    'docs/action.md',
  );
  const configuration = replacePart(
    read('docs/configuration.md'),
    'config-reference',
    renderConfigReference(configJsonSchema),
    'docs/configuration.md',
  );
  return { 'docs/action.md': action, 'docs/configuration.md': configuration, 'README.md': readmeExamples(read('README.md'), read) };
}

/**
 * The copyable workflows README shows, each a file of workflows/ as shipped, less the jobs a user
 * turns on in mesh-perf.yaml (daily.yml's confirm and record run only with a confirm section):
 * README names them and links the whole file.
 */
export const README_EXAMPLES = [
  { path: 'workflows/daily.yml', optInJobs: ['confirm', 'record'] },
  { path: 'workflows/pr-gate.yml', optInJobs: [] },
];

/**
 * README with each `<!-- example:workflows/X.yml:start/end -->` part holding that file as a yaml
 * block from its `name:` on (the file's header comment says what README's prose around it says).
 */
export function readmeExamples(readme, read) {
  let page = readme;
  for (const { path } of README_EXAMPLES)
    page = replacePart(page, `example:${path}`, `\`\`\`yaml\n${readmeExampleOf(path, read)}\n\`\`\``, 'README.md');
  return page;
}

/** The part of a shipped workflow README shows (see README_EXAMPLES). */
export function readmeExampleOf(path, read) {
  const { optInJobs } = README_EXAMPLES.find((e) => e.path === path);
  return withoutJobs(withoutHeader(read(path)), optInJobs).trimEnd();
}

/** A workflow without the named jobs (each from its `  name:` line to the next job or the end). */
function withoutJobs(workflow, jobs) {
  const out = [];
  let skipping = false;
  for (const line of workflow.split('\n')) {
    const job = /^ {2}([\w-]+):\s*$/.exec(line);
    if (job || /^\S/.test(line)) skipping = job !== null && jobs.includes(job[1]);
    if (!skipping) out.push(line);
  }
  return out.join('\n');
}

/** A workflow from its first line that is not a comment (or blank). */
function withoutHeader(workflow) {
  const lines = workflow.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  return lines.slice(Math.max(0, first)).join('\n');
}
