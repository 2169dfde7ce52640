// The real-node tier's components (scripts/real/components.mjs holds the list, shared with
// scripts/test-tiers.mjs): a component's path, or an error naming the command that builds it.
// @ts-expect-error a plain JS module without types
import { components as allComponents, missingComponents as missing } from '../../../scripts/real/components.mjs';

export interface Component {
  name: string;
  /** A version, or the commit a prebuilt binary was built from. */
  version: string;
  path: string;
  how: string;
}

export const components = (): Component[] => allComponents();
export const missingComponents = (): Component[] => missing();

export function componentPath(name: string): string {
  const component = components().find((c) => c.name === name);
  if (!component) throw new Error(`unknown component ${name}`);
  if (missingComponents().some((c) => c.name === name))
    throw new Error(`${name} ${component.version} is missing (${component.path}): run \`${component.how}\``);
  return component.path;
}

export function componentVersion(name: string): string {
  const component = components().find((c) => c.name === name);
  if (!component) throw new Error(`unknown component ${name}`);
  return component.version;
}
