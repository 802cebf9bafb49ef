// TRUST_PROXY: which peers' X-Forwarded-For the service believes when it records a client's
// address. Unset, no one's: the address is the TCP peer (the balancer, behind one). A number is
// the count of proxies in front (1: the balancer); a list is the balancers' own addresses or
// networks, so a client that reaches a process directly cannot choose the address it is logged
// under. See docs/deployment.md, "Client addresses".
import ipaddr from 'ipaddr.js';

/** false: none; a number: that many hops; a list: trusted addresses and CIDR networks. */
export type TrustProxy = false | number | string[];

export function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= 10) return hops;
    problems.push(`TRUST_PROXY as a hop count must be 1 to 10 (got "${raw}")`);
    return false;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrNetwork(entry));
  if (bad.length > 0) {
    problems.push(
      `TRUST_PROXY must be a hop count or a comma-separated list of IP addresses or CIDR networks (not ${bad.map((b) => `"${b}"`).join(', ')})`,
    );
    return false;
  }
  return entries;
}

function isAddressOrNetwork(entry: string): boolean {
  if (entry === '') return false;
  if (entry.includes('/')) {
    try {
      ipaddr.parseCIDR(entry);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(entry);
}

/**
 * As the HTTP framework takes it (proxy-addr's rule): a hop count trusts the `n` nearest
 * proxies, hop 0 being the TCP peer.
 */
export function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
