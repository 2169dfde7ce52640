// `mesh-perf init`: writes a commented mesh-perf.yaml to start from, checked by the same
// validation `plan` and `run` use before it is written.
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYaml } from '../../config/load.ts';
import { PLATFORMS, type PlatformName } from '../../config/schema.ts';
import { validateConfig } from '../../config/validate.ts';
import { findPreset, PRESETS } from '../../presets/index.ts';
import { mergeRaw } from '../../config/merge.ts';
import { didYouMean } from '../../util/did-you-mean.ts';
import { messageOf, UsageError } from '../../util/errors.ts';
import { specialFileKind } from '../../util/file-kind.ts';
import { quote } from '../../util/quote.ts';
import type { Command } from '../command.ts';
import { renderInitConfig } from '../init-template.ts';
import { invocation } from '../invocation.ts';
import { DEFAULT_CONFIG } from '../load-config.ts';
import { makeDirectory } from '../../util/make-directory.ts';

export const command: Command = {
  name: 'init',
  summary: 'Write a commented mesh-perf.yaml to start from',
  usage: 'init [--preset NAME] [--platform local|endpoints|kind|kubeconfig] [--config FILE] [--force]',
  options: [
    { name: 'platform', value: 'NAME', description: 'local (default), endpoints, kind or kubeconfig' },
    { name: 'preset', value: 'NAME', description: 'Start from a preset (see `mesh-perf presets`)' },
    { name: 'config', value: 'FILE', description: `File to write (default ./${DEFAULT_CONFIG})` },
    { name: 'force', description: 'Overwrite the file if it exists' },
  ],
  details: 'Then: `mesh-perf plan` shows the trials and checks the file; `mesh-perf run` runs it.',
  async run(context) {
    const { options } = context.args;
    const preset = options.preset === undefined ? undefined : findPreset(options.preset);
    if (options.preset !== undefined && !preset) {
      const guess = didYouMean(
        options.preset,
        PRESETS.map((p) => p.name),
      );
      throw new UsageError(
        `--preset ${options.preset}: unknown preset${guess ? `; did you mean "${guess}"?` : ''} (see mesh-perf presets)`,
      );
    }
    const platform = (options.platform ?? (preset?.config.platform as string | undefined) ?? 'local') as PlatformName;
    if (!(PLATFORMS as readonly string[]).includes(platform)) {
      throw new UsageError(`--platform ${platform}: expected one of ${PLATFORMS.join(', ')}`);
    }
    const label = options.config ?? DEFAULT_CONFIG;
    const file = resolve(context.cwd, label);
    const special = existsSync(file) ? specialFileKind(statSync(file)) : undefined;
    // Writing into a FIFO waits for a reader forever; a device is never a config file.
    if (special) throw new UsageError(`--config ${quote(label)} is ${special}, not a file to write a config into`);
    if (existsSync(file) && !context.args.switches.has('force')) {
      throw new UsageError(`${label} already exists; pass --force to overwrite it, or --config FILE to write another file`);
    }
    const schemaPath = schemaPathFrom(dirname(file));
    const text = renderInitConfig({
      platform,
      schemaPath,
      suite: preset ? preset.name : 'default',
      ...(preset ? { preset: preset.name } : {}),
    });
    // The written file must be one `plan` accepts: validate it as the loader would.
    validateConfig(mergeRaw(preset?.config ?? {}, parseYaml(text, label)), label);
    await makeDirectory(dirname(file), `--config ${label}`);
    try {
      await writeFile(file, text, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENAMETOOLONG' ? 'the name is too long' : code === 'EACCES' ? 'permission denied' : messageOf(error);
      throw new UsageError(`--config ${quote(label)}: cannot write the file (${why})`);
    }
    const me = invocation();
    const config = options.config ? ` --config ${label}` : '';
    context.stdout(
      `Wrote ${label} (platform ${platform}${preset ? `, preset ${preset.name}` : ''}).\nNext: ${me} plan${config}   # check it, see the trials and what the job takes\n      ${me} run${config}    # run it\n`,
    );
    return 0;
  },
};

/**
 * The JSON schema shipped beside mesh-perf (schema/ above src/cli/commands or dist/), relative to
 * the config's folder so editors find it; a bare relative path keeps working when both move together.
 */
function schemaPathFrom(configDir: string): string {
  let dir = new URL('./', import.meta.url);
  for (let up = 0; up < 5; up++) {
    const candidate = new URL('schema/mesh-perf.schema.json', dir);
    if (existsSync(candidate)) {
      const path = relative(configDir, fileURLToPath(candidate));
      return path.startsWith('.') || path.startsWith('/') ? path : `./${path}`;
    }
    dir = new URL('../', dir);
  }
  return './node_modules/mesh-perf-action/schema/mesh-perf.schema.json';
}
