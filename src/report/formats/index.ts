// Source-benchmark outputs of a run: which ones a preset asks for, rendered from results.json only.
// The pipeline writes each one next to results.json; the markdown ones also belong in the job
// summary (Kyma's readers look for their tables there).
import { findPreset } from '../../presets/index.ts';
import { renderAmbientCsv, renderAmbientTable } from './ambient.ts';
import { renderFortioRuns } from './fortio-runs.ts';
import { renderIstioSizing } from './istio-sizing.ts';
import { renderKymaTables } from './kyma.ts';
import { SOURCE_FORMATS, type SourceFormatName } from '../../presets/format-names.ts';
import { renderUdsReport } from './uds.ts';
import type { RunView } from '../view.ts';

export interface RenderedFormat {
  name: SourceFormatName;
  /** File name to write next to results.json. */
  file: string;
  content: string;
  /** Markdown meant for the job summary / PR comment. */
  markdown: boolean;
}

const RENDERERS: Record<SourceFormatName, (view: RunView) => string> = {
  'kyma-tables': (view) => renderKymaTables([view]),
  'fortio-runs': renderFortioRuns,
  'istio-sizing': renderIstioSizing,
  'ambient-csv': renderAmbientCsv,
  'ambient-table': renderAmbientTable,
  'uds-report': renderUdsReport,
};

/** The formats of the preset the run started from (results.config.preset), or the ones named. */
export function sourceFormatsFor(view: RunView): SourceFormatName[] {
  const preset = (view.config as { preset?: unknown }).preset;
  return typeof preset === 'string' ? (findPreset(preset)?.formats ?? []) : [];
}

export function renderSourceFormats(view: RunView, names: readonly SourceFormatName[] = sourceFormatsFor(view)): RenderedFormat[] {
  return names.map((name) => ({
    name,
    file: SOURCE_FORMATS[name].file,
    content: RENDERERS[name](view),
    markdown: SOURCE_FORMATS[name].file.endsWith('.md'),
  }));
}
