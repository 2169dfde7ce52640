// The kind host's actions in order (host.ts runs them; down runs their undo in reverse).
import type { Action } from '../host.ts';
import { docker } from './docker.ts';
import { images } from './images.ts';
import { namespaces } from './namespaces.ts';
import { network } from './network.ts';
import { preflight } from './preflight.ts';
import { registry } from './registry.ts';

export const KIND_ACTIONS: readonly Action[] = [preflight, namespaces, docker, network, registry, images];
