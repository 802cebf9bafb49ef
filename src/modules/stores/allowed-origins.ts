// The origins a store allows to call its Content API from a browser (docs/content-api.md, "CORS").
// Each is kept exactly as a browser sends it in `Origin` (lowercase scheme and host, a port only
// when it is not the scheme's default, no path), so checking a request is one string comparison.

/** The most origins one store may list: a handful of storefronts, previews and local builds. */
export const MAX_ALLOWED_ORIGINS = 20;

/** An origin as a browser writes it, or null when `text` is not an http(s) origin alone. */
export function normaliseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' || /^[a-z]+:\/\/[^/]+\/.+/i.test(text)) return null;
  return url.origin;
}

/**
 * Parses the operator's comma-separated list (`none` clears it): the normalised origins, in the
 * order given, without repeats; or the problem, to show as it is.
 */
export function parseAllowedOrigins(text: string): { origins: string[] } | { problem: string } {
  if (text.trim() === 'none') return { origins: [] };
  const origins: string[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    const origin = normaliseOrigin(entry);
    if (!origin) return { problem: `"${entry}" is not an origin like https://shop.example or http://localhost:3000` };
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (origins.length > MAX_ALLOWED_ORIGINS) return { problem: `at most ${MAX_ALLOWED_ORIGINS} origins` };
  return { origins };
}

/** The column's value for a list of origins (null: none). */
export const allowedOriginsColumn = (origins: string[]): string | null =>
  origins.length === 0 ? null : origins.join(',');
