// Raw API calls with their answers checked and typed, in one place: a call names the statuses it
// accepts and what it was doing (verb, resource, namespace); any other answer becomes apiError's
// message (missing permission, bad credentials, the server's own words), and a body is parsed as
// the JSON the caller reads. For the API server's JSON outside the typed client (discovery, kwok-
// friendly lists, merge patches, deletes by label).
import { apiError, type ApiAction } from './api-errors.ts';
import { type ClusterAccess, type RawResponse, rawRequest } from './access.ts';

type RequestOptions = NonNullable<Parameters<typeof rawRequest>[2]>;

/** Throws apiError's message for an answer whose status is not one of `ok`. */
export function expectStatus(response: RawResponse, ok: readonly number[], action: ApiAction): RawResponse {
  if (ok.includes(response.status)) return response;
  throw apiError(Object.assign(new Error(response.body), { code: response.status, body: response.body }), action);
}

/** GETs one object (or a discovery document): undefined when there is none (404). */
export async function getJson<T>(
  access: ClusterAccess,
  path: string,
  action: ApiAction,
  options: RequestOptions = {},
): Promise<T | undefined> {
  const response = await rawRequest(access, path, options);
  if (response.status === 404) return undefined;
  return JSON.parse(expectStatus(response, [200], action).body) as T;
}

/** A list's items; undefined when the server does not serve that API (404). */
export async function listJson<T>(
  access: ClusterAccess,
  path: string,
  action: ApiAction,
  options: RequestOptions = {},
): Promise<T[] | undefined> {
  return (await getJson<{ items: T[] }>(access, path, action, options))?.items;
}

/** Sends a request that must be answered with one of `ok`; the answer, for the caller to tell those apart. */
export async function sendJson(
  access: ClusterAccess,
  path: string,
  action: ApiAction,
  options: RequestOptions & { ok: readonly number[] },
): Promise<RawResponse> {
  const { ok, ...request } = options;
  return expectStatus(await rawRequest(access, path, request), ok, action);
}

/** A DELETE's answers that mean "gone or going": deleted, accepted, or not there at all. */
export const DELETED = [200, 202, 404] as const;
