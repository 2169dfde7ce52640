// One problem found in a configuration, in its own file so the checks that produce problems and
// validate.ts, which collects them, do not import each other.
export interface ConfigProblem {
  path: string;
  message: string;
  /** Where the offending value came from: "flag --rate", "input rate", a file, "preset NAME". */
  origin?: string;
  /** The environment, not the config, is at fault (an endpoint that does not answer): exit 3 when it is the only kind. */
  environment?: boolean;
}
