// How the user started mesh-perf, for the commands a message tells them to type next: under npx
// (npm sets npm_command=exec for the commands it runs that way, as in a clone before any install)
// `npx mesh-perf`, else `mesh-perf`.
export function invocation(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_command === 'exec' ? 'npx mesh-perf' : 'mesh-perf';
}
