// Where a webhook may be sent: an https URL whose host resolves only to public addresses. The
// check runs when an endpoint is saved and again before every attempt, and the attempt connects
// to the address that was checked (a DNS answer that changes in between — DNS rebinding — cannot
// point a delivery at the service's own network).
// `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_TARGETS=1, development and tests only) also allows http
// and loopback or private addresses.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export const URL_MAX_LENGTH = 2048;

export interface CheckedTarget {
  url: URL;
  /** The address to connect to, checked. */
  address: string;
  family: 4 | 6;
}

export type TargetCheck = { ok: true; target: CheckedTarget } | { ok: false; problem: string };

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The URL's form alone (no DNS): scheme, no credentials, a host. */
export function checkUrlForm(raw: string, allowPrivate: boolean): { ok: true; url: URL } | { ok: false; problem: string } {
  if (raw.length > URL_MAX_LENGTH) return { ok: false, problem: `must be at most ${URL_MAX_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'must be an absolute URL, e.g. https://example.com/hooks/blog' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return { ok: false, problem: 'must use https' };
  if (url.username || url.password) return { ok: false, problem: 'must not contain a user name or password' };
  if (!url.hostname) return { ok: false, problem: 'must name a host' };
  return { ok: true, url };
}

/** Public unicast only: no loopback, private, link-local, shared (CGNAT), multicast, reserved or documentation ranges. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The URL's form, then its host's addresses: every one must be public (unless allowed). */
export async function checkTarget(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<TargetCheck> {
  const form = checkUrlForm(raw, allowPrivate);
  if (!form.ok) return form;
  const { url } = form;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return { ok: false, problem: `host "${host}" does not resolve` };
    }
  }
  if (addresses.length === 0) return { ok: false, problem: `host "${host}" does not resolve` };
  if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) {
    return { ok: false, problem: 'must resolve to public internet addresses only (not loopback, private or reserved ones)' };
  }
  const [first] = addresses;
  return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
}
