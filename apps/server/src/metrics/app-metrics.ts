import { ORDER_STATUSES } from '@offzero/shared/api/orders';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Database } from '../db/database';
import type { PriceBook } from '../prices/price-book';
import type { SanctionsListService } from '../compliance/sanctions/sanctions-list.service';
import {
  countOrdersByTypeAndStatus,
  countPayoutsByRailAndState,
  countPendingOutbox,
} from './metrics.repository';
import { PAYOUT_RAILS, PAYOUT_STATES } from '@offzero/shared/api/payouts';
import { createRequestDurations, type RequestDurations } from './request-durations';
import { countShieldDecisions } from '../places/places.repository';

/** The route label of requests no route matched: raw URLs would make one series per probe or typo. */
export const UNMATCHED_ROUTE = 'unmatched';

const ORDER_TYPES = ['buy', 'sell'] as const;

export type JobOutcome = 'ok' | 'error';

export interface AppMetrics {
  httpRequestDuration: RequestDurations;
  jobRuns: Counter<'job' | 'outcome'>;
  depositsCredited: Counter;
  /** Money that arrived at the bank, by outcome: matched to an order, unmatched (held), duplicate. */
  bankCredits: Counter<'outcome'>;
  /** The exposition text of this app's series and the process's default ones. */
  render(): Promise<{ contentType: string; text: string }>;
}

/**
 * The process's own series (CPU, memory, event loop, GC…): one set per process, however many apps it
 * builds (tests build many), since each set starts monitors that are never stopped.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    renameTotalGauges(processRegistry);
  }
  return processRegistry;
}

/**
 * prom-client names three default gauges `…_total`, a suffix Prometheus keeps for counters (`promtool
 * check metrics` refuses them). Each is served as `…_all` instead, with the same value, read at scrape
 * time: the active handles, requests and resources of every type (the sum of the gauge by type).
 */
function renameTotalGauges(registry: Registry): void {
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ]) {
    const original = registry.getSingleMetric(name);
    if (!original) continue;
    registry.removeSingleMetric(name);
    const kind = name.replace(/^nodejs_active_|_total$/g, '');
    new Gauge({
      name: name.replace(/_total$/, '_all'),
      help: `Number of active ${kind} of every type (the sum of nodejs_active_${kind} by type).`,
      registers: [registry],
      async collect() {
        const { values } = await original.get();
        this.set(values[0]?.value ?? 0);
      },
    });
  }
}

/**
 * This app's Prometheus series (docs/design.md), in a registry of its own so that several apps
 * in one process (tests) never share counts. Gauges of state are read at scrape time.
 */
export function createAppMetrics(deps: {
  db: Database;
  prices: Pick<PriceBook, 'current'>;
  /** The sanctions list, whose state is read at scrape time. */
  sanctionsList?: Pick<SanctionsListService, 'health'>;
  log: FastifyBaseLogger;
  now?: () => number;
}): AppMetrics {
  const now = deps.now ?? Date.now;
  const registry = new Registry();
  const registers = [registry];

  const httpRequestDuration = createRequestDurations(
    'HTTP requests by method, route pattern and status code, and how long they took.',
    registers,
  );
  const jobRuns = new Counter({
    name: 'offzero_jobs_total',
    help: 'Background job runs by job and outcome (ok or error).',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const depositsCredited = new Counter({
    name: 'offzero_deposits_credited_total',
    help: 'Bitcoin deposits the deposit watcher credited to sell orders.',
    registers,
  });
  const bankCredits = bankCreditsCounter(registers);
  // The delivery outbox (outbox_events), not the demo's mail sink (outbox_messages).
  new Gauge({
    name: 'offzero_outbox_pending',
    help: 'Outbox deliveries (e-mail, SMS, realtime) waiting to be delivered or retried.',
    registers,
    async collect() {
      try {
        this.set(await countPendingOutbox(deps.db));
      } catch (error) {
        deps.log.warn({ err: error }, 'metrics: could not count the outbox backlog');
        this.reset();
      }
    },
  });

  registerShieldDecisionsGauge(deps, registers);

  new Gauge({
    name: 'offzero_orders',
    help: 'Orders by type and status.',
    labelNames: ['type', 'status'] as const,
    registers,
    async collect() {
      let rows: Awaited<ReturnType<typeof countOrdersByTypeAndStatus>>;
      try {
        rows = await countOrdersByTypeAndStatus(deps.db);
      } catch (error) {
        // The rest of the scrape still answers; the series is missing for this one.
        deps.log.warn({ err: error }, 'metrics: could not count orders');
        this.reset();
        return;
      }
      // Every pair is reported, zero included, so a series does not vanish when its last order moves on.
      for (const type of ORDER_TYPES) {
        for (const status of ORDER_STATUSES) {
          const row = rows.find((r) => r.type === type && r.status === status);
          this.set({ type, status }, Number(row?.count ?? 0));
        }
      }
    },
  });

  registerPayoutGauge(deps, registers);

  new Gauge({
    name: 'offzero_price_age_seconds',
    help: 'Seconds since the price this process quotes from was fetched (+Inf before the first).',
    registers,
    collect() {
      const current = deps.prices.current();
      this.set(current ? Math.max(0, (now() - current.fetchedAt.getTime()) / 1000) : Infinity);
    },
  });

  if (deps.sanctionsList) registerSanctionsListGauges(deps.sanctionsList, { log: deps.log, now }, registers);

  return {
    httpRequestDuration,
    jobRuns,
    depositsCredited,
    bankCredits,
    async render() {
      const [processText, appText] = await Promise.all([processMetrics().metrics(), registry.metrics()]);
      return { contentType: registry.contentType, text: `${processText.trimEnd()}\n\n${appText}` };
    },
  };
}

/** The sanctions list's state, read at scrape time: whether it needs a person, and its age. */
function registerSanctionsListGauges(
  sanctionsList: Pick<SanctionsListService, 'health'>,
  deps: { log: FastifyBaseLogger; now: () => number },
  registers: Registry[],
): void {
  const { now } = deps;
  new Gauge({
    name: 'offzero_sanctions_list_alert',
    help: 'Whether the sanctions list needs a person (1): never loaded, last refresh failed, or stale.',
    registers,
    async collect() {
      try {
        this.set((await sanctionsList.health()).alert ? 1 : 0);
      } catch (error) {
        deps.log.warn({ err: error }, 'metrics: could not read the sanctions list state');
        this.set(1);
      }
    },
  });
  new Gauge({
    name: 'offzero_sanctions_list_age_seconds',
    help: 'Seconds since the sanctions list in force was loaded (+Inf before the first load).',
    registers,
    async collect() {
      try {
        const { loadedAt } = await sanctionsList.health();
        this.set(loadedAt ? Math.max(0, (now() - loadedAt.getTime()) / 1000) : Infinity);
      } catch {
        this.set(Infinity);
      }
    },
  });
}

/** Times every request the app answers, labelled with its route pattern (never the raw URL). */
export function observeHttpRequests(app: FastifyInstance, metrics: AppMetrics): void {
  // A plain callback: it runs on every answer, and a promise per answer costs more than the count.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      request.method,
      request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/**
 * `offzero_shield_decisions{decision}`: the places rules' and the scam shield's decisions, read from
 * their audit trail, so every process reports the same counts.
 */
function registerShieldDecisionsGauge(
  deps: { db: Database; log: FastifyBaseLogger },
  registers: Registry[],
): void {
  new Gauge({
    name: 'offzero_shield_decisions',
    help: 'Decisions of the places rules and the scam shield (refusals, answers, caps, cooling-off, scam cancels), by decision.',
    labelNames: ['decision'] as const,
    registers,
    async collect() {
      try {
        const rows = await countShieldDecisions(deps.db);
        this.reset();
        for (const row of rows) this.set({ decision: row.decision }, row.count);
      } catch (error) {
        deps.log.warn({ err: error }, 'metrics: could not count the shield decisions');
        this.reset();
      }
    },
  });
}

/** Payouts by rail and state (docs/design.md, "Payouts"), read at scrape time. */
function registerPayoutGauge(deps: { db: Database; log: FastifyBaseLogger }, registers: Registry[]): void {
  new Gauge({
    name: 'offzero_payouts',
    help: 'Payouts by rail and state: in flight (requested, submitted) or how they ended.',
    labelNames: ['rail', 'state'] as const,
    registers,
    async collect() {
      try {
        const rows = await countPayoutsByRailAndState(deps.db);
        for (const rail of PAYOUT_RAILS) {
          for (const state of PAYOUT_STATES) {
            const row = rows.find((r) => r.rail === rail && r.state === state);
            this.set({ rail, state }, Number(row?.count ?? 0));
          }
        }
      } catch (error) {
        deps.log.warn({ err: error }, 'metrics: could not count payouts');
        this.reset();
      }
    },
  });
}

function bankCreditsCounter(registers: Registry[]): Counter<'outcome'> {
  return new Counter({
    name: 'offzero_bank_inbound_credits_total',
    help: 'Inbound bank credits by outcome (matched, unmatched, duplicate).',
    labelNames: ['outcome'] as const,
    registers,
  });
}
