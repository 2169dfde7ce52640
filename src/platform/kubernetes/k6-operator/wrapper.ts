// How the data of a k6-operator runner gets back to us. k6-operator starts each runner as a Job
// whose container command is `k6 run ...`; when k6 exits, the pod completes and the files k6
// wrote (our summary JSON, the raw-samples CSV) go with it: nothing can be exec'd in a finished
// container, and `--linger` does not help because k6 writes its summary and flushes its outputs
// only after the linger wait ends. Pod logs are no channel for raw samples either: a repetition
// at thousands of rps writes tens of MB of CSV, past the kubelet's log rotation (10 MiB).
//
// So the runner pods get this wrapper as `k6`, first on PATH (a ConfigMap volume, mode 0755,
// and the runner's PATH env: the container runtime resolves the command with the container's
// PATH). It runs the real k6 in a directory of its own (an emptyDir), records k6's exit code
// when it ends, and keeps the container up until mesh-perf has read the files through the exec
// API and touched `released`; then it exits with k6's code, so the Job and the TestRun finish
// as k6-operator expects. A deleted pod (cancel, cleanup) stops k6 through the TERM trap and
// removes the directory.

/** Where the wrapper is mounted; prepended to PATH. */
export const WRAPPER_DIR = '/mesh-perf/bin';
/** ConfigMap key of the wrapper (mounted as WRAPPER_DIR/k6). */
export const WRAPPER_KEY = 'mesh-perf-k6-wrapper.sh';
/** The wrapper works in WORK_ROOT/<pod name> (an emptyDir volume in the runner pod). */
export const WORK_ROOT = '/tmp/mesh-perf-k6-operator';
/** Env var carrying the pod's own name (downward API). */
export const POD_NAME_ENV = 'MESH_PERF_POD';
export const EXIT_FILE = 'exit-code';
export const STDERR_FILE = 'k6.stderr';
export const RELEASE_FILE = 'released';
/** PATH of the grafana/k6 image (Alpine), behind the wrapper's directory. */
export const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function workDirOf(pod: string): string {
  return `${WORK_ROOT}/${pod}`;
}

/** POSIX sh (BusyBox in the k6 image). `$0` is the wrapper's resolved path, so its directory is dropped from PATH. */
export const WRAPPER_SCRIPT = `#!/bin/sh
# mesh-perf: k6 for k6-operator runner pods (src/platform/kubernetes/k6-operator/wrapper.ts).
# Runs the real k6 in a directory of its own, records its exit code, and keeps the container up
# until mesh-perf has read k6's files and touched "${RELEASE_FILE}"; then exits with k6's code.
PATH=\${PATH#"$(dirname "$0"):"}
export PATH
[ "$1" = run ] || exec k6 "$@"
dir="${WORK_ROOT}/\${${POD_NAME_ENV}:?${POD_NAME_ENV} is not set}"
mkdir -p "$dir" && cd "$dir" || exit 126
k6 "$@" 2>${STDERR_FILE} &
pid=$!
stopping=
trap 'stopping=1; kill -TERM "$pid" 2>/dev/null' TERM INT
code=
while [ -z "$code" ]; do
  wait "$pid"
  status=$?
  kill -0 "$pid" 2>/dev/null || code=$status
done
tail -c 20000 ${STDERR_FILE} >&2
echo "$code" >${EXIT_FILE}.tmp && mv ${EXIT_FILE}.tmp ${EXIT_FILE}
# Every way out removes the directory: once read (released), or deleted while k6 ran or while
# waiting, when nobody will read it (it outlives the pod where pods run as host processes, as kwok
# runs them).
finish() { cd / && rm -rf "$dir"; exit "$code"; }
[ -z "$stopping" ] || finish
trap finish TERM INT
while [ ! -e ${RELEASE_FILE} ]; do sleep 1; done
finish
`;
