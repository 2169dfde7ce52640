// The kind tier's components (scripts/kind/components.mjs holds the list, shared with
// scripts/test-tiers.mjs): a component's path, or an error naming the command that builds it.
// @ts-expect-error a plain JS module without types
import { components as allComponents, kindVersions, missingComponents as missing } from '../../../scripts/kind/components.mjs';
import type { Component } from '../real/components.ts';

export const kindComponents = (): Component[] => allComponents();
export const missingKindComponents = (): Component[] => missing();
export const versions = (): Record<string, string> => kindVersions();

export function kindComponentPath(name: string): string {
  const component = kindComponents().find((c) => c.name === name);
  if (!component) throw new Error(`unknown kind-tier component ${name}`);
  if (missingKindComponents().some((c) => c.name === name))
    throw new Error(`${name} ${component.version} is missing (${component.path}): run \`${component.how}\``);
  return component.path;
}
