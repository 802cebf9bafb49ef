// A browser that blocks a call for CORS tells the page nothing but a TypeError ("Failed to
// fetch" in Chromium, "NetworkError when attempting to fetch resource." in Firefox, "Load
// failed" in Safari): the same error as a network that is down. The heuristic: fetch threw a
// TypeError before any answer, in a runtime with a page (`location`, so a browser window or
// worker, not Node or an edge runtime), and the page's origin differs from the service's. Then
// CORS is the likely cause, and the error says so instead of a bare network_error.

export interface CorsSuspicion {
  pageOrigin: string;
  apiOrigin: string;
}

/** Whether a failed fetch of `url` looks like a CORS refusal (see above), with the two origins. */
export function corsSuspicion(error: unknown, url: URL): CorsSuspicion | null {
  if (!(error instanceof TypeError)) return null;
  const pageOrigin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  if (typeof pageOrigin !== 'string') return null;
  // A page at file:// or in a sandbox has the opaque origin "null": every call is cross-origin.
  return pageOrigin === url.origin ? null : { pageOrigin, apiOrigin: url.origin };
}
