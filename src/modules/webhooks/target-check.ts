// Where a webhook may be sent: an https URL whose host resolves only to public addresses. The
// check runs when an endpoint is saved and again before every attempt, and the attempt connects
// to the address that was checked (a DNS answer that changes in between — DNS rebinding — cannot
// point a delivery at the service's own network).
// `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_TARGETS=1, development and tests only) also allows http
// and loopback or private addresses. Only the ports of WEBHOOK_ALLOWED_PORTS may be named
// (docs/webhooks.md, "Where deliveries may go").
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

/** The URL's form alone (no DNS): scheme, no credentials, a host, an allowed port. */
export function checkUrlForm(raw: string, rules: TargetRules): { ok: true; url: URL } | { ok: false; problem: string } {
  const { allowPrivate } = rules;
  if (raw.length > URL_MAX_LENGTH) return { ok: false, problem: `must be at most ${URL_MAX_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'must be an absolute URL, e.g. https://example.com/hooks/blog' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return { ok: false, problem: 'must use https' };
  if (url.username || url.password) return { ok: false, problem: 'must not contain a user name or password' };
  if (!url.hostname) return { ok: false, problem: 'must name a host' };
  if (rules.ports && !rules.ports.includes(portOf(url))) {
    return { ok: false, problem: `must use port ${rules.ports.join(' or ')} (port ${portOf(url)} is not allowed)` };
  }
  return { ok: true, url };
}

/** The IPv4 address an IPv6 address carries, for the forms that reach an IPv4 host; else null. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts; // eight 16-bit groups
  const fromGroups = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zeros = (from: number, to: number) => p.slice(from, to).every((g) => g === 0);
  // ::a.b.c.d (IPv4-compatible, ::/96), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145).
  if (zeros(0, 5) && (p[5] === 0 || p[5] === 0xffff)) return fromGroups(p[6], p[7]);
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return fromGroups(p[6], p[7]);
  // 64:ff9b::a.b.c.d (NAT64, RFC 6052).
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return fromGroups(p[6], p[7]);
  // 2002:aabb:ccdd::/48 (6to4).
  if (p[0] === 0x2002) return fromGroups(p[1], p[2]);
  return null;
}

/**
 * Public unicast only: no loopback, private, link-local, shared (CGNAT), multicast, reserved or
 * documentation ranges, and no IPv6 form that reaches such an IPv4 address (mapped,
 * IPv4-compatible, NAT64, 6to4). Teredo and local NAT64 (64:ff9b:1::/48) are refused outright.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.parts[0] === 0x64 && v6.parts[1] === 0xff9b && v6.parts[2] === 1) return false;
  const range = v6.range();
  if (range === 'unspecified' || range === 'loopback') return false;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range() === 'unicast';
  return range === 'unicast';
}

/** Default WEBHOOK_ALLOWED_PORTS: the standard HTTPS port and its common alternative. */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443, 8443];

/**
 * Where deliveries may go: `allowPrivate` (development and tests) also allows http and private
 * addresses; `ports` lists the ports a URL may name (null: any, the default with allowPrivate).
 */
export interface TargetRules {
  allowPrivate: boolean;
  ports: readonly number[] | null;
}

/** The rules for the configured settings: any port with allowPrivate unless ports are listed. */
export function targetRules(allowPrivate: boolean, ports?: readonly number[] | null): TargetRules {
  return { allowPrivate, ports: ports !== undefined ? ports : allowPrivate ? null : DEFAULT_WEBHOOK_PORTS };
}

const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/**
 * The URL as it is stored and sent to: parsed and written back by the URL standard (surrounding
 * spaces dropped, host lower-cased, a default port left out), without a fragment, which is
 * never sent.
 */
export function normaliseUrl(url: URL): string {
  const withoutFragment = new URL(url.href);
  withoutFragment.hash = '';
  return withoutFragment.href;
}

/** The URL's form, then its host's addresses: every one must be public (unless allowed). */
export async function checkTarget(
  raw: string,
  rules: TargetRules,
  resolve: Resolver = systemResolver,
): Promise<TargetCheck> {
  const { allowPrivate } = rules;
  const form = checkUrlForm(raw, rules);
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
    return {
      ok: false,
      problem: 'must resolve to public internet addresses only (not loopback, private or reserved ones)',
    };
  }
  const [first] = addresses;
  return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
}
