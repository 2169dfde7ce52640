// Renders docs/action.md's inputs and outputs tables from action.yml, between marker comments, so
// the documentation cannot drift from the action. scripts/build.mjs calls updateActionTables;
// test/build/dist-fresh.test.ts and test/github/action-metadata.test.ts fail when the committed
// page differs from its output.
import { parse } from 'yaml';

export const MARKERS = {
  inputs: ['<!-- inputs:start -->', '<!-- inputs:end -->'],
  outputs: ['<!-- outputs:start -->', '<!-- outputs:end -->'],
};

/** Markdown tables for action.yml's inputs and outputs. */
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

/** Returns the page with both tables replaced; throws when a marker pair is missing. */
export function updateActionTables(pageText, actionYamlText) {
  const tables = renderActionTables(actionYamlText);
  let out = pageText;
  for (const [key, [start, end]] of Object.entries(MARKERS)) {
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < 0 || to < from) {
      throw new Error(`docs/action.md needs the markers ${start} and ${end} (in that order) around the ${key} table`);
    }
    out = `${out.slice(0, from + start.length)}\n${tables[key]}\n${out.slice(to)}`;
  }
  return out;
}

function cell(text) {
  return String(text ?? '')
    .trim()
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|');
}

function table(header, rows) {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
