// Plain-text tables, one helper for every one the CLI prints (the run's table, plan, compare,
// calibrate): a header, a rule of '─', rows; names left-aligned, numbers right-aligned; widths as a
// terminal shows them (colour escapes take no room). Pure.

export interface Column {
  header: string;
  cells: string[];
  /** Shown in the first table; the others move to a second table when space runs out. */
  essential: boolean;
  /** Left-aligned (names); numbers are right-aligned. */
  left?: boolean;
}

export function columnWidth(column: Column): number {
  let width = visibleWidth(column.header);
  for (const cell of column.cells) width = Math.max(width, visibleWidth(cell));
  return width;
}

export function renderTable(columns: Column[]): string {
  const widths = columns.map(columnWidth);
  const rowCount = columns.reduce((n, c) => Math.max(n, c.cells.length), 0);
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => pad(cell, widths[c]!, c === 0 || columns[c]!.left === true))
      .join('  ')
      .trimEnd();
  const out = [line(columns.map((c) => c.header)), widths.map((w) => '─'.repeat(w)).join('  ')];
  for (let r = 0; r < rowCount; r++) out.push(line(columns.map((c) => c.cells[r] ?? '')));
  return out.join('\n');
}

/** Characters as a terminal shows them: colour escapes take no room. */
export function visibleWidth(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour escapes are what this strips
  return [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
}

function pad(text: string, width: number, left: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return left ? text + fill : fill + text;
}

/** A table from rows of cells, the first row the header; the first column, and any in `left`, left-aligned. */
export function alignTable(rows: string[][], left: (column: number) => boolean = () => false): string {
  const columns: Column[] = rows[0]!.map((header, c) => ({
    header,
    cells: rows.slice(1).map((r) => r[c] ?? ''),
    essential: true,
    left: left(c),
  }));
  return renderTable(columns);
}

/**
 * Lays the columns out in tables no wider than `width`. The first column names the row and is
 * repeated in every table. Everything in one table when it fits (or `wide`); otherwise the
 * essential columns in the first table and the rest in a second, starting another table
 * whenever the next column would overflow.
 */
export function fitColumns(columns: Column[], width: number, wide: boolean): string {
  const [key, ...rest] = columns;
  if (!key) return '';
  const widthOf = (cols: Column[]) => cols.reduce((sum, c) => sum + columnWidth(c), 0) + 2 * (cols.length - 1);
  if (wide || widthOf(columns) <= width) return renderTable(columns);
  // The essential columns together, then the rest in their own table(s), in their usual order.
  const tables: Column[][] = [];
  for (const group of [rest.filter((c) => c.essential), rest.filter((c) => !c.essential)]) {
    if (group.length > 0) tables.push([key]);
    for (const column of group) {
      const current = tables.at(-1)!;
      if (current.length > 1 && widthOf([...current, column]) > width) tables.push([key, column]);
      else current.push(column);
    }
  }
  return tables.map(renderTable).join('\n\n');
}
