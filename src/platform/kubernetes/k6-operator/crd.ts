// Is k6-operator there? The TestRun resource is looked up in the API server's discovery
// document for k6.io/v1alpha1, which every authenticated user may read (reading the CRD object
// itself needs a cluster-wide permission many users lack). The controller's image, when the
// user may list Deployments, is recorded with the results.
import { EnvironmentError } from '../../../util/errors.ts';
import type { ClusterAccess } from '../access.ts';
import { getJson, listJson } from '../api-json.ts';
import { installHint, K6_OPERATOR_VERSION, TESTRUN_API, TESTRUN_CRD } from './version.ts';

export async function requireTestRunCrd(access: ClusterAccess): Promise<void> {
  const discovery = await getJson<{ resources?: { name: string }[] }>(
    access,
    `/apis/${TESTRUN_API}`,
    { verb: 'get', resource: `/apis/${TESTRUN_API}` },
    { timeoutMs: 15_000 },
  );
  if (!discovery?.resources?.some((r) => r.name === 'testruns')) throw missing(access);
}

function missing(access: ClusterAccess): EnvironmentError {
  return new EnvironmentError(
    `load.engine is "k6-operator" but the cluster at ${access.server} (context "${access.contextName}") has no ${TESTRUN_CRD} CustomResourceDefinition (TestRun, ${TESTRUN_API}); ${installHint()}`,
  );
}

export interface OperatorFacts {
  /** The release mesh-perf is tested against. */
  pinnedVersion: string;
  /** Image of the running controller, when visible: "ghcr.io/grafana/k6-operator:controller-v1.6.0". */
  controllerImage?: string;
}

/** Best effort: the bundle and the Helm chart both label the controller app.kubernetes.io/name=k6-operator. */
export async function operatorFacts(access: ClusterAccess): Promise<OperatorFacts> {
  const facts: OperatorFacts = { pinnedVersion: K6_OPERATOR_VERSION };
  try {
    const items = await listJson<{ spec?: { template?: { spec?: { containers?: { name: string; image: string }[] } } } }>(
      access,
      `/apis/apps/v1/deployments?labelSelector=${encodeURIComponent('app.kubernetes.io/name=k6-operator')}`,
      { verb: 'list', resource: 'deployments.apps' },
      { timeoutMs: 15_000, attempts: 2 },
    );
    const containers = (items ?? []).flatMap((d) => d.spec?.template?.spec?.containers ?? []);
    const manager = containers.find((c) => c.name === 'manager') ?? containers[0];
    if (manager) facts.controllerImage = manager.image;
  } catch {
    // Refused or unreachable: the facts go without the image (a run that cannot reach the API
    // server fails elsewhere with a better message).
  }
  return facts;
}
