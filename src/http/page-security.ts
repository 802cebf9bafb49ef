// Response headers of the HTML pages. The only script a page may run is the view beacon, one
// file of the service named by its exact address (no inline script, no other file); the only
// markup from users is the filtered body, and the policy below is the second line of defence
// should the filter ever miss something. Styles come from one inline block allowed by its hash.
import { createHash } from 'node:crypto';
import { VIEW_BEACON_SCRIPT_PATH } from '../modules/storefront/index.js';

export function styleHash(css: string): string {
  return `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
}

/**
 * Images: the service itself, the origin of PUBLIC_BASE_URL (cover urls are absolute and the
 * page may be reached under another host name), and any https: source, because filtered
 * bodies may embed images from elsewhere. Plain http: and data: images are not allowed.
 */
export function storefrontCsp(css: string, publicBaseUrl: string): string {
  return [
    "default-src 'none'",
    `img-src 'self' ${new URL(publicBaseUrl).origin} https:`,
    `style-src ${styleHash(css)}`,
    // A source with a path matches that one file; the beacon posts to the store front's paths.
    `script-src ${publicBaseUrl}${VIEW_BEACON_SCRIPT_PATH}`,
    // robots.txt: audit tools (Lighthouse) read the host's from within the page.
    `connect-src ${publicBaseUrl}/s/ ${new URL(publicBaseUrl).origin}/robots.txt`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every storefront page carries, 200, 304 and 404 alike. */
export function pageHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}
