// Platform name → factory. Kubernetes platforms register here too.
import type { PlatformName } from '../config/schema.ts';
import { UsageError } from '../util/errors.ts';
import { EndpointsPlatform } from './endpoints.ts';
import { LocalPlatform } from './local.ts';
import type { PlatformFactory } from './types.ts';
import { KUBERNETES_PLATFORMS } from './kubernetes/index.ts';

const FACTORIES: Partial<Record<PlatformName, PlatformFactory>> = {
  local: (context) => new LocalPlatform(context),
  endpoints: (context) => new EndpointsPlatform(context),
  ...KUBERNETES_PLATFORMS,
};

export function platformFactory(name: PlatformName): PlatformFactory {
  const factory = FACTORIES[name];
  if (!factory)
    throw new UsageError(`platform: "${name}" is not available in this build (available: ${Object.keys(FACTORIES).join(', ')})`);
  return factory;
}
