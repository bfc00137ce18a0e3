import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { parseSdnAdvancedXml, SanctionsListError } from './sdn-advanced-parser';
import {
  findSanctionsListStatus,
  recordSanctionsRefreshFailure,
  replaceSanctionedAddresses,
  type SanctionsListStatus,
} from './sanctions-list.repository';
import { screeningKey } from './sanctions-screening';

/** The list is refreshed this often (OFAC publishes changes on business days). */
export const SANCTIONS_REFRESH_EVERY_MS = 24 * 3600_000;

/** A list that has not loaded for this long raises the alert even without a recorded failure. */
const STALE_AFTER_MS = 2 * SANCTIONS_REFRESH_EVERY_MS;

/** The real list is about 120 MB; anything far larger is not it. */
const MAX_LIST_BYTES = 512 * 1024 * 1024;

/** What the back office and the metrics show of the list. */
export interface SanctionsListHealth {
  version: string | null;
  loadedAt: Date | null;
  addressCount: number;
  /** Why the list needs a person: it never loaded, the last refresh failed, or it is stale. */
  alert: string | null;
}

/**
 * Loads the sanctions list from `url` (http(s), or a `file:` URL for the demo's list) and keeps it in
 * the database for every process. A refresh that fails (unreachable, malformed, empty) keeps the
 * last good list and records why: `health()` then reports an alert.
 */
export function createSanctionsListService(deps: {
  db: Database;
  url: string;
  log: FastifyBaseLogger;
  timeoutMs?: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const timeoutMs = deps.timeoutMs ?? 5 * 60_000;

  /** The list's text, chunk by chunk, from a file or over HTTP, never more than MAX_LIST_BYTES. */
  async function* readList(url: URL): AsyncGenerator<string> {
    let bytes = 0;
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const count = (size: number) => {
      bytes += size;
      if (bytes > MAX_LIST_BYTES) throw new SanctionsListError('The sanctions list is larger than 512 MB.');
    };
    if (url.protocol === 'file:') {
      for await (const chunk of createReadStream(fileURLToPath(url)) as AsyncIterable<Buffer>) {
        count(chunk.length);
        yield decoder.decode(chunk, { stream: true });
      }
    } else {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/xml, text/xml' },
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        throw new SanctionsListError(`The sanctions list source answered HTTP ${response.status}.`);
      }
      // Node's web stream is async-iterable; the DOM typings do not say so.
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        count(chunk.length);
        yield decoder.decode(chunk, { stream: true });
      }
    }
    yield decoder.decode();
  }

  /** Where the list came from, for people: a URL without credentials or query, or a file path. */
  function describe(url: URL): string {
    return url.protocol === 'file:' ? fileURLToPath(url) : `${url.origin}${url.pathname}`;
  }

  return {
    /**
     * Reads the list and puts it in force. On any failure the list in force stays, the failure is
     * recorded (the alert) and the error is thrown again, so the job counts the run as failed.
     */
    async refresh(): Promise<{ version: string; addressCount: number }> {
      let url: URL;
      try {
        url = new URL(deps.url);
      } catch {
        url = new URL('file:///');
      }
      try {
        if (!['http:', 'https:', 'file:'].includes(url.protocol) || deps.url === '') {
          throw new SanctionsListError('SANCTIONS_LIST_URL must be an http(s) or file: URL.');
        }
        const list = await parseSdnAdvancedXml(readList(url));
        const keys = [...new Set(list.bitcoinAddresses.map(screeningKey))];
        await replaceSanctionedAddresses(
          deps.db,
          { version: list.version, source: describe(url), keys },
          now(),
        );
        deps.log.info({ version: list.version, addresses: keys.length }, 'sanctions list loaded');
        return { version: list.version, addressCount: keys.length };
      } catch (error) {
        const reason =
          error instanceof SanctionsListError
            ? error.message
            : error instanceof TypeError && error.message.includes('decode')
              ? 'The sanctions list is not UTF-8 text.'
              : `The sanctions list could not be read: ${error instanceof Error ? error.message : String(error)}`;
        await recordSanctionsRefreshFailure(deps.db, reason, now());
        deps.log.error({ reason }, 'sanctions list refresh failed; the last good list stays in force');
        throw error;
      }
    },

    /** The list in force and whether it needs a person. */
    async health(): Promise<SanctionsListHealth> {
      return sanctionsListHealth(await findSanctionsListStatus(deps.db), now());
    },
  };
}

export type SanctionsListService = ReturnType<typeof createSanctionsListService>;

/** The alert, if any, that a list state raises at `now`. */
export function sanctionsListHealth(status: SanctionsListStatus | null, now: Date): SanctionsListHealth {
  const base = {
    version: status?.version ?? null,
    loadedAt: status?.loadedAt ?? null,
    addressCount: status?.addressCount ?? 0,
  };
  if (!status?.loadedAt) {
    return {
      ...base,
      alert: status?.lastError
        ? `No sanctions list is loaded: ${status.lastError}`
        : 'No sanctions list is loaded yet.',
    };
  }
  if (status.lastError) {
    return {
      ...base,
      alert: `The last sanctions list refresh failed (${status.lastError}); the list of ${status.version ?? 'unknown date'} stays in force.`,
    };
  }
  if (now.getTime() - status.loadedAt.getTime() > STALE_AFTER_MS) {
    return {
      ...base,
      alert: `The sanctions list has not been refreshed since ${status.loadedAt.toISOString()}.`,
    };
  }
  return { ...base, alert: null };
}
