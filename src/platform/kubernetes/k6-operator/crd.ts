// Is k6-operator there? The TestRun resource is looked up in the API server's discovery
// document for k6.io/v1alpha1, which every authenticated user may read (reading the CRD object
// itself needs a cluster-wide permission many users lack). The controller's image, when the
// user may list Deployments, is recorded with the results.
import { EnvironmentError } from '../../../util/errors.ts';
import { rawRequest, type ClusterAccess } from '../access.ts';
import { apiError } from '../api-errors.ts';
import { installHint, K6_OPERATOR_VERSION, TESTRUN_API, TESTRUN_CRD } from './version.ts';

export async function requireTestRunCrd(access: ClusterAccess): Promise<void> {
  const response = await rawRequest(access, `/apis/${TESTRUN_API}`, { timeoutMs: 15_000 });
  if (response.status === 404) throw missing(access);
  if (response.status !== 200)
    throw apiError(Object.assign(new Error(response.body), { code: response.status, body: response.body }), {
      verb: 'get',
      resource: `/apis/${TESTRUN_API}`,
    });
  const resources = (JSON.parse(response.body) as { resources?: { name: string }[] }).resources ?? [];
  if (!resources.some((r) => r.name === 'testruns')) throw missing(access);
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
    const response = await rawRequest(
      access,
      `/apis/apps/v1/deployments?labelSelector=${encodeURIComponent('app.kubernetes.io/name=k6-operator')}`,
      {
        timeoutMs: 15_000,
        attempts: 2,
      },
    );
    if (response.status !== 200) return facts;
    const items = (
      JSON.parse(response.body) as { items: { spec?: { template?: { spec?: { containers?: { name: string; image: string }[] } } } }[] }
    ).items;
    const containers = items.flatMap((d) => d.spec?.template?.spec?.containers ?? []);
    const manager = containers.find((c) => c.name === 'manager') ?? containers[0];
    if (manager) facts.controllerImage = manager.image;
  } catch {
    // Unreachable now means the run fails elsewhere with a better message.
  }
  return facts;
}
