// A fetch() answer read whole and shaped like inject()'s, so the same assertions (assertError and
// friends) apply to requests sent to real server processes.
import type { LightMyRequestResponse } from 'fastify';

export type FetchedResponse = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body' | 'json' | 'rawPayload'>;

export async function readResponse(res: Response): Promise<FetchedResponse> {
  const raw = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  const body = raw.toString('utf8');
  return { statusCode: res.status, headers, body, rawPayload: raw, json: () => JSON.parse(body) };
}

/** fetch(base + path) with an optional Bearer key and JSON body, read whole. */
export async function send(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string>; form?: FormData } = {},
): Promise<FetchedResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | FormData | undefined = opts.form;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  return readResponse(await fetch(`${base}${path}`, { method, headers, body }));
}
