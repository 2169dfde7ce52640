// The setup sub-action (setup/action.yml): puts the pinned, checksum-verified tools on PATH for
// users who script their own steps. Uses the same pin table and verified download as the
// product itself, so a tool the action runs and a tool a user runs are the same bytes.
import * as core from '@actions/core';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { downloadVerified } from '../tools/download.ts';
import { TOOL_PINS, type ToolPin } from '../tools/pins.ts';
import { EXIT, UsageError } from '../util/errors.ts';
import { SETUP_INPUT } from './inputs.ts';
import { expandHome } from './path-input.ts';
import type { ModeOutcome } from './run-benchmark.ts';

export const DEFAULT_TOOLS = ['kind', 'k6', 'istioctl', 'linkerd'];

export async function runSetupMode(
  env: NodeJS.ProcessEnv,
  pins: Record<string, ToolPin> = TOOL_PINS,
  fetchImpl: typeof fetch = fetch,
): Promise<ModeOutcome> {
  const requested = parseToolList(core.getInput(SETUP_INPUT.tools));
  const cacheDir = resolve(
    expandHome(core.getInput(SETUP_INPUT.cacheDir)) || join(env.RUNNER_TOOL_CACHE || join(env.RUNNER_TEMP || '.', 'tools'), 'mesh-perf'),
  );
  // Pins with only an `any` asset are data the action installs itself (gateway-api: the CRDs, as a
  // module zip), not a program to put on PATH: refused by name instead of failing the download.
  const commands = Object.keys(pins).filter((name) => isCommand(pins[name]!));
  const data = requested.filter((name) => pins[name] && !isCommand(pins[name]!));
  if (data.length > 0) {
    throw new UsageError(
      `input tools: ${data.join(', ')} is not a command-line tool (the action installs it into the cluster itself); the setup action puts ${commands.sort().join(', ')} on PATH`,
    );
  }
  const unknown = requested.filter((name) => !pins[name]);
  if (unknown.length > 0) {
    throw new UsageError(`input tools: no pinned version of ${unknown.join(', ')} (pinned tools: ${commands.sort().join(', ') || 'none'})`);
  }
  const paths: Record<string, string> = {};
  for (const name of requested) {
    const pin = pins[name]!;
    const binary = join(cacheDir, pin.name, pin.version, pin.binary ?? pin.name);
    await core.group(`${pin.name} ${pin.version}`, async () => {
      if (existsSync(binary)) core.info(`cached at ${binary}`);
      else {
        core.info(`downloading and verifying SHA-256 into ${binary}`);
        await downloadVerified(pin, binary, fetchImpl);
      }
    });
    core.addPath(dirname(binary));
    paths[pin.name] = binary;
  }
  core.setOutput('paths', JSON.stringify(paths));
  core.setOutput('versions', JSON.stringify(Object.fromEntries(requested.map((n) => [n, pins[n]!.version]))));
  return { exitCode: EXIT.pass };
}

export function parseToolList(text: string): string[] {
  const names = text
    .split(/[\s,]+/)
    .map((n) => n.trim())
    .filter(Boolean);
  return [...new Set(names.length > 0 ? names : DEFAULT_TOOLS)];
}

function isCommand(pin: ToolPin): boolean {
  return Object.keys(pin.assets).some((key) => key !== 'any');
}
