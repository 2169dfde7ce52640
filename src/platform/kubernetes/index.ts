// Factories the pipeline registers for the platform names "kubeconfig" and "kind".
import type { Platform, PlatformContext, PlatformFactory } from '../types.ts';
import { KindPlatform } from './kind/platform.ts';
import { KubernetesPlatform } from './platform.ts';

export function createKubernetesPlatform(context: PlatformContext): Platform {
  return new KubernetesPlatform(context);
}

export function createKindPlatform(context: PlatformContext): Platform {
  return new KindPlatform(context);
}

export const KUBERNETES_PLATFORMS: Record<'kind' | 'kubeconfig', PlatformFactory> = {
  kind: createKindPlatform,
  kubeconfig: createKubernetesPlatform,
};
