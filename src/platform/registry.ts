// Platform name → factory. The Kubernetes platforms are imported when a run asks for one: their
// client library (@kubernetes/client-node) takes about 0.7 s of CPU to load, which a run on the
// local or endpoints platform, `plan`, `report` and every other command never need.
import type { PlatformName } from '../config/schema.ts';
import { EndpointsPlatform } from './endpoints.ts';
import { LocalPlatform } from './local.ts';
import type { PlatformFactory } from './types.ts';

const FACTORIES: Record<PlatformName, () => Promise<PlatformFactory>> = {
  local: async () => (context) => new LocalPlatform(context),
  endpoints: async () => (context) => new EndpointsPlatform(context),
  kind: async () => (await import('./kubernetes/index.ts')).KUBERNETES_PLATFORMS.kind,
  kubeconfig: async () => (await import('./kubernetes/index.ts')).KUBERNETES_PLATFORMS.kubeconfig,
};

export function platformFactory(name: PlatformName): Promise<PlatformFactory> {
  return FACTORIES[name]();
}
