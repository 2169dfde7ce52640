// Kubernetes section: cluster access and mesh installation (kind and kubeconfig platforms).
import { z } from 'zod';

export const kubernetesSchema = z
  .strictObject({
    kubeconfig: z.string().optional().describe('path to a kubeconfig; default KUBECONFIG or ~/.kube/config'),
    context: z.string().optional(),
    replicas: z.number().int().min(1).max(90).default(1).describe('echo server pods per mode'),
  })
  .default({ replicas: 1 });
