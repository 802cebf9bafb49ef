// Views are counted by a beacon the page sends, not by the page request: a browser or a CDN may
// serve the page from its cache, and a view must still count. The page loads one small
// same-origin script (allowed by its exact address in the Content-Security-Policy, no inline
// script) that POSTs once to `<post page>/views`. Robots mostly do not run scripts; those that
// do, and any client naming itself a robot, are not counted.
//
// A beacon costs nothing to forge, so what one client can add is bounded: one view per post per
// client address per VIEW_REPEAT_MS (a reader reloading counts once in that window). The memory
// for this is bounded too (MAX_TRACKED entries, oldest dropped first); each process keeps its
// own, so behind N processes a client adds at most N views per window.
import { createHash } from 'node:crypto';

/** The beacon script's path under the service's root. */
export const VIEW_BEACON_SCRIPT_PATH = '/s/assets/views.js';

/**
 * Sent once per page load (a bfcache restore does not rerun it); a page being prerendered
 * waits until it is shown. sendBeacon survives the reader leaving at once.
 */
export const VIEW_BEACON_JS = `(function () {
  var s = document.currentScript, url = s && s.getAttribute('data-views');
  if (!url) return;
  function send() {
    if (navigator.sendBeacon && navigator.sendBeacon(url)) return;
    fetch(url, { method: 'POST', keepalive: true, mode: 'no-cors', credentials: 'omit' });
  }
  if (document.prerendering) document.addEventListener('prerenderingchange', send, { once: true });
  else send();
})();
`;

const digest = createHash('sha256').update(VIEW_BEACON_JS).digest();
/** Subresource Integrity of the script: the page refuses any other text at its address. */
export const VIEW_BEACON_INTEGRITY = `sha256-${digest.toString('base64')}`;
/** Part of the script's address, so a changed script is a new address for every cache. */
export const VIEW_BEACON_VERSION = digest.toString('base64url').slice(0, 12);

export const VIEW_REPEAT_MS = 30_000;
const MAX_TRACKED = 100_000;

/** User agents that name themselves robots, crawlers, link previewers or audit tools. */
const ROBOT_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|lighthouse|pagespeed|curl\/|wget\/|python-|go-http-client|java\//i;

export function isRobot(userAgent: string | undefined): boolean {
  return !userAgent || ROBOT_AGENT.test(userAgent);
}

/** Decides which beacons count: one per (client, post) per VIEW_REPEAT_MS, memory bounded. */
export class ViewGate {
  /** `<client>|<post>` → when its last counted view was; insertion order is age order. */
  private seen = new Map<string, number>();

  constructor(private readonly maxTracked = MAX_TRACKED) {}

  admit(client: string, postId: number, now: number): boolean {
    const key = `${client}|${postId}`;
    const last = this.seen.get(key);
    if (last !== undefined && now - last < VIEW_REPEAT_MS) return false;
    this.seen.delete(key);
    this.seen.set(key, now);
    this.trim(now);
    return true;
  }

  private trim(now: number): void {
    for (const [key, at] of this.seen) {
      if (this.seen.size <= this.maxTracked && now - at < VIEW_REPEAT_MS) break;
      this.seen.delete(key);
    }
  }
}
