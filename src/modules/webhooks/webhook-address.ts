import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { ValidationIssue } from '../../common/errors';

/**
 * Where a webhook may not go unless `webhooks.allowPrivateNetworks`: this network, private,
 * shared (carrier-grade NAT), loopback, link-local, multicast and reserved IPv4 ranges; the
 * unspecified and loopback IPv6 addresses, unique-local, link-local and multicast IPv6 ranges.
 * BlockList also matches an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) against the IPv4 rules.
 */
const REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv4');
}
REFUSED.addAddress('::', 'ipv6');
REFUSED.addAddress('::1', 'ipv6');
for (const [net, prefix] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv6');
}

/** The start of `lastError` for an attempt refused by address. */
export const PRIVATE_REFUSED = 'private network address refused';

/** Whether an IP address (v4 or v6, without brackets) is in a refused range. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The host of a parsed URL as an IP address (brackets of IPv6 removed), or null for a name. */
export function addressLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

/**
 * An endpoint URL as stored: the WHATWG parser's form (`http://2130706433/` and `http://127.1/`
 * are `http://127.0.0.1/`), `http:` or `https:` only, and not an address in a refused range
 * unless private networks are allowed. A host name is checked at each attempt, after DNS.
 */
export function readWebhookUrl(
  value: string,
  allowPrivateNetworks: boolean,
): { url: string } | { issue: ValidationIssue } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { issue: { path: 'url', code: 'isUrl', message: 'url must be an absolute http or https URL' } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { issue: { path: 'url', code: 'isUrl', message: 'url must be an http or https URL' } };
  }
  if (!url.hostname) {
    return { issue: { path: 'url', code: 'isUrl', message: 'url must name a host' } };
  }
  const literal = addressLiteral(url);
  if (literal && !allowPrivateNetworks && isRefusedAddress(literal)) {
    return {
      issue: {
        path: 'url',
        code: 'privateAddress',
        message: `url must not point to a private, loopback, link-local, multicast or reserved address (${literal}); webhooks.allowPrivateNetworks allows it`,
      },
    };
  }
  return { url: url.href };
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that resolves the host and refuses it when any of its addresses is
 * in a refused range: the check is made on the addresses the connection will use, so a name that
 * changes its answer between the create and an attempt (DNS rebinding) gains nothing.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, []);
      return;
    }
    const refused = addresses.find((a) => isRefusedAddress(a.address));
    if (refused) {
      callback(
        Object.assign(new Error(`${PRIVATE_REFUSED}: ${hostname} resolves to ${refused.address}`), {
          code: 'EPRIVATE',
        }),
        [],
      );
      return;
    }
    if (options.all) {
      callback(null, addresses);
    } else {
      callback(null, addresses[0].address, addresses[0].family);
    }
  });
}
