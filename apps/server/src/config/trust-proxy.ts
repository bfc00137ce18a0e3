import { isIP } from 'node:net';

/** What Fastify's `trustProxy` gets: nothing, a hop count, or the proxies' addresses and networks. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for whole private ranges, accepted as list entries. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Reads `TRUST_PROXY`: empty, `false` or `0` (no proxy), a hop count (`1` = one proxy in front), or a
 * comma-separated list of proxy addresses and CIDR networks. `true` and `/0` networks are refused:
 * trusting every hop lets any client choose its own IP through `X-Forwarded-For`, which would defeat
 * the per-IP rate limits and the country checks. Answers the value, or a problem to report.
 */
export function parseTrustProxy(raw: string): { value: TrustProxy } | { problem: string } {
  const text = raw.trim();
  if (text === '' || text === 'false' || text === '0') return { value: false };
  if (text.toLowerCase() === 'true') {
    return {
      problem:
        'true would trust any client-supplied X-Forwarded-For; set the number of proxies in front of ' +
        'OffZero (for example 1) or their addresses (for example 10.0.0.0/8,127.0.0.1)',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? { value: hops } : { problem: `${text} proxy hops is not believable; use at most 10` };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (wrong.length > 0) {
    return {
      problem:
        `not a hop count or a list of proxy addresses and networks: ${wrong.map((w) => `"${w}"`).join(', ')} ` +
        '(use for example 1, or 10.0.0.0/8,127.0.0.1; a /0 network would trust everyone)',
    };
  }
  return { value: entries };
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d+$/.test(prefix)) return false;
  const bits = Number(prefix);
  // A /0 network is "everyone", the very thing this setting must never mean.
  return bits >= 1 && bits <= (version === 4 ? 32 : 128);
}

/**
 * The value for Fastify's `trustProxy`. Fastify ignores a bare hop count (it cannot check who the
 * nearest peer is), so a count becomes the function proxy-addr asks about each hop, nearest first:
 * with 1, the socket's peer (the proxy) is trusted and the client is the address it forwarded.
 * A count is for ports only the proxies can reach; list their addresses otherwise.
 */
export function toFastifyTrustProxy(
  trustProxy: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}
