// Turns Kubernetes API failures into messages a user can act on: which verb on which resource
// was refused (RBAC), what was not found, and what the server said.
import { EnvironmentError, MeshPerfError } from '../../util/errors.ts';
import { statusOf } from './retry.ts';

export interface ApiAction {
  verb: string;
  /** Resource and name: "deployments.apps/echo", "namespaces". */
  resource: string;
  namespace?: string;
}

export function serverMessage(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as { message?: string };
      if (parsed.message) return parsed.message;
    } catch {
      return body.slice(0, 300);
    }
  }
  if (body && typeof body === 'object' && 'message' in body) return String((body as { message: unknown }).message);
  return error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : String(error);
}

export function apiError(error: unknown, action: ApiAction): MeshPerfError {
  if (error instanceof MeshPerfError) return error;
  const where = action.namespace ? ` in namespace ${action.namespace}` : '';
  const status = statusOf(error);
  const said = serverMessage(error);
  if (status === 403) {
    return new EnvironmentError(
      `missing permission: the API server refused to ${action.verb} ${action.resource}${where} (HTTP 403: ${said}). Grant the kubeconfig's user the "${action.verb}" verb on ${action.resource.split('/')[0]}, or use a context that has it.`,
    );
  }
  if (status === 401)
    return new EnvironmentError(
      `the API server rejected the kubeconfig's credentials while trying to ${action.verb} ${action.resource}${where} (HTTP 401); refresh them`,
    );
  if (status !== undefined) return new EnvironmentError(`could not ${action.verb} ${action.resource}${where}: HTTP ${status}: ${said}`);
  return new EnvironmentError(`could not ${action.verb} ${action.resource}${where}: ${said}`);
}
