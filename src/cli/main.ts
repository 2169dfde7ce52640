// The CLI's single failure point: parses the command line, runs one command, and maps every
// error to a one-paragraph message and an exit code. Nothing below this calls process.exit.
import { COMMANDS } from './registry.ts';
import { commandHelp, parseArgs } from './args.ts';
import { wrap } from '../report/terminal.ts';
import { terminalWidth } from './terminal-width.ts';
import { hanging } from './help-layout.ts';
import { consoleLogger } from './console-logger.ts';
import { tolerateClosedReader } from './closed-output.ts';
import { errorText } from './error-text.ts';
import { EXIT, exitCodeOf, messageOf, MeshPerfError, UsageError } from '../util/errors.ts';
import { didYouMean } from '../util/did-you-mean.ts';
import { cutMessage, quote } from '../util/quote.ts';
import type { Logger } from '../util/log.ts';
import { redactText, registerEnvSecrets, registerSecret, urlSecrets } from '../util/redact.ts';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  log: Logger;
  cwd: string;
  signal: AbortSignal;
}

export function mainHelp(columns = terminalWidth()): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 4;
  // Summaries wrap in their own column at the terminal's width.
  const entry = (name: string, summary: string) =>
    wrap(summary, Math.max(columns - width - 2, 20)).map((line, i) => `  ${(i === 0 ? name : '').padEnd(width)}${line.trimStart()}`);
  return [
    ...hanging('mesh-perf — what does the service mesh cost us, and did this change make it worse?', columns),
    '',
    'Usage: mesh-perf <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.flatMap((c) => entry(c.name, c.summary)),
    '',
    "Run `mesh-perf <command> --help` for a command's options.",
    ...hanging(
      'Exit codes: 0 pass, 1 a gate failed, 2 usage or config error, 3 environment problem or invalid run, 130 interrupted.',
      columns,
    ),
    '',
  ].join('\n');
}

export async function main(argv: string[], given: CliIo): Promise<number> {
  // Tokens from the environment and credentials inside URLs given as arguments are never printed.
  registerEnvSecrets(process.env);
  for (const arg of argv) for (const secret of urlSecrets(arg)) registerSecret(secret);
  const io = redactedIo(given);
  const [name, ...rest] = argv;
  if (name === 'help' && rest[0] && COMMANDS.some((c) => c.name === rest[0])) {
    io.stdout(commandHelp(COMMANDS.find((c) => c.name === rest[0])!));
    return EXIT.pass;
  }
  if (name === 'help' && rest[0]) {
    const guess = didYouMean(
      rest[0],
      COMMANDS.map((c) => c.name),
    );
    io.stderr(
      `\n${errorText(`mesh-perf help: unknown command ${quote(rest[0])}${guess ? `; did you mean "${guess}"?` : ''} (run mesh-perf --help for the list)`, terminalWidth())}\n`,
    );
    return EXIT.usage;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(mainHelp());
    return name ? EXIT.pass : EXIT.usage;
  }
  if (name === '--version') {
    const { MESH_PERF_VERSION } = await import('../pipeline.ts');
    io.stdout(`${MESH_PERF_VERSION}\n`);
    return EXIT.pass;
  }
  const command = COMMANDS.find((c) => c.name === name);
  try {
    if (!command) {
      const guess = didYouMean(
        name,
        COMMANDS.map((c) => c.name),
      );
      throw new UsageError(
        `unknown command ${quote(name)}${guess ? `; did you mean "${guess}"?` : ''} (run mesh-perf --help for the list)`,
      );
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(commandHelp(command));
      return EXIT.pass;
    }
    const args = parseArgs(command, rest);
    return await command.run({ args, log: io.log, stdout: io.stdout, signal: io.signal, cwd: io.cwd });
  } catch (error) {
    const code = exitCodeOf(error);
    const known = error instanceof MeshPerfError;
    // One prefix: "mesh-perf plan: …" for a command's errors, "mesh-perf: …" before one is known.
    // Redacted before wrapping, so no credential is split across lines; cut so a huge value is not echoed whole.
    io.stderr(
      `\n${errorText(`mesh-perf${command ? ` ${command.name}` : ''}: ${cutMessage(redactText(messageOf(error)))}`, terminalWidth())}\n`,
    );
    if (!known && process.env.MESH_PERF_DEBUG) io.stderr(`${(error as Error).stack ?? ''}\n`);
    return code;
  }
}

/** Everything the CLI prints (results, logs, errors) goes through the one redaction (util/redact.ts). */
function redactedIo(io: CliIo): CliIo {
  const log = io.log;
  return {
    ...io,
    stdout: (text) => io.stdout(redactText(text)),
    stderr: (text) => io.stderr(redactText(text)),
    log: {
      phase: (title) => log.phase(redactText(title)),
      info: (message) => log.info(redactText(message)),
      warn: (message) => log.warn(redactText(message)),
      progress: (line) => log.progress(redactText(line)),
      progressDone: () => log.progressDone(),
    },
  };
}

export function defaultIo(signal: AbortSignal): CliIo {
  const stdoutClosed = tolerateClosedReader(process.stdout);
  const stderrClosed = tolerateClosedReader(process.stderr);
  return {
    stdout: (text) => void (stdoutClosed() || process.stdout.write(text)),
    stderr: (text) => void (stderrClosed() || process.stderr.write(text)),
    log: consoleLogger(),
    cwd: process.cwd(),
    signal,
  };
}
