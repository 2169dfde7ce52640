// The k6-operator release mesh-perf is written and tested against, and how a user installs it.
// The TestRun API (k6.io/v1alpha1) used here is the one of api/v1alpha1/testrun_types.go at
// this tag; `spec.args` (exact argv) needs v1.6.0 or later.

export const K6_OPERATOR_VERSION = '1.6.0';
/** grafana/helm-charts' k6-operator chart that installs app version 1.6.0 (its Chart.yaml). */
export const K6_OPERATOR_CHART_VERSION = '4.6.0';
export const TESTRUN_CRD = 'testruns.k6.io';
export const TESTRUN_API = 'k6.io/v1alpha1';

/** The release's all-in-one manifest: CRDs, RBAC and the controller Deployment. */
export const K6_OPERATOR_BUNDLE = `https://raw.githubusercontent.com/grafana/k6-operator/v${K6_OPERATOR_VERSION}/bundle.yaml`;

/**
 * The starter pod that resumes the paused runners. k6-operator defaults to the floating
 * `latest-starter` tag; the release's own tag keeps the run reproducible.
 */
export const K6_OPERATOR_STARTER_IMAGE = `ghcr.io/grafana/k6-operator:starter-v${K6_OPERATOR_VERSION}`;

export function installHint(): string {
  return [
    `install k6-operator v${K6_OPERATOR_VERSION} (its TestRun CRD and controller):`,
    // Commands on lines of their own, indented by four: the terminal never wraps those, so they copy whole.
    `    kubectl apply --server-side -f ${K6_OPERATOR_BUNDLE}`,
    'or with Helm:',
    '    helm repo add grafana https://grafana.github.io/helm-charts',
    `    helm install k6-operator grafana/k6-operator --version ${K6_OPERATOR_CHART_VERSION} -n k6-operator-system --create-namespace`,
    'or set load.engine: k6 to run k6 in the client pods instead',
  ].join('\n');
}

/** Platform kind creates its cluster: k6-operator must already run in a reused one. */
export function kindWithoutOperator(clusterName: string): string {
  return [
    `load.engine is "k6-operator", but platform kind would create a new cluster "${clusterName}", which has no k6-operator.`,
    `Create the kind cluster yourself (workers ≥ load.generators + 1: a node per runner, one for the echo server), install k6-operator v${K6_OPERATOR_VERSION} in it, and run again: mesh-perf reuses a kind cluster of that name and leaves it in place. Or use platform kubeconfig with a cluster that runs k6-operator.`,
    installHint(),
  ].join('\n');
}
