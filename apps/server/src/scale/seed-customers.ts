/**
 * The scale seed's customers (docs/performance.md, "At scale"): each with a KYC record, settings, a
 * payout address, most with a W-9, some with a bank account number, a monitoring case or a recurring
 * plan and its runs. Customer `i` (1…N) has the id `seededId(seed, 'u', i)`, so the orders can point at
 * it without reading it back.
 */
import {
  below,
  CITIES,
  FIRST_NAMES,
  LAST_NAMES,
  pickByPercent,
  pickOne,
  seededAddress,
  seededId,
  STATES,
  uniform,
} from './seed-sql';

export interface SeedShape {
  seed: number;
  customers: number;
  orders: number;
  /** One order in this many is still processing and one pending (default 2,000: the last hours' worth). */
  openEvery?: number;
}

/** The e-mail domain of a seed's customers: `c<i>.<name>@<domain>`. */
export const seedEmailDomain = (seed: number) => `seed${seed}.example.com`;

/** The day the seed's history ends (its "now"): every date is counted back from it. */
export const ANCHOR = `date_trunc('day', now())`;

export function customerStatements({ seed, customers }: SeedShape): string[] {
  const i = 'i';
  const id = seededId(seed, 'u', i);
  const first = pickOne(seed, 1, i, FIRST_NAMES);
  const last = pickOne(seed, 2, i, LAST_NAMES);
  // Customers joined 400 to 800 days before the anchor, so every order comes after its customer.
  const joined = `${ANCHOR} - (400 + 400 * ${uniform(seed, 3, i)}) * interval '1 day'`;
  const series = `generate_series(1, ${customers}) as ${i}`;
  const users = `insert into users (id, email, first_name, last_name, phone_number, email_verified, phone_verified,
      referral_code, limit_tier, restricted_at, restricted_reason, created_at, updated_at)
    select ${id}, 'c' || ${i} || '.' || lower(${last}) || '@${seedEmailDomain(seed)}', ${first}, ${last},
      '+1202' || lpad(${i}::text, 7, '0'), true, true, 'S${seed}R' || ${i},
      case when ${below(seed, 4, i, 100)} < 5 then 2 else 1 end,
      case when ${below(seed, 5, i, 1000)} < 3 then ${ANCHOR} - interval '3 days' end,
      case when ${below(seed, 5, i, 1000)} < 3 then 'payment reversed' end,
      ${joined}, ${joined}
    from ${series}`;
  const kycStatus = pickByPercent(below(seed, 6, i, 100), [
    ["'GREEN'", 93],
    ["'YELLOW'", 5],
    ["'RED'", 2],
  ]);
  const kyc = `insert into kyc_records (id, user_id, provider, status, applicant_id, legal_name, date_of_birth,
      country, residence_state, document_type, document_number, decided_by, decided_at, submitted_at,
      created_at, updated_at)
    select ${seededId(seed, 'kyc', i)}, u.id, case when ${i} % 3 = 0 then 'local' else 'sumsub' end, ${kycStatus},
      'app-' || ${i}, u.first_name || ' ' || u.last_name,
      (date '1960-01-01' + ${below(seed, 7, i, 15000)}::int)::text, 'US', ${pickOne(seed, 8, i, STATES)},
      'DRIVERS', 'D' || lpad(${i}::text, 9, '0'), 'provider', u.created_at + interval '1 hour',
      u.created_at + interval '10 minutes', u.created_at, u.created_at + interval '1 hour'
    from ${series} join users u on u.id = ${id}`;
  const settings = `insert into user_settings (user_id, bank_name, account_name, account_number, routing_number,
      zelle_email, receive_email, receive_sms)
    select ${id}, 'Seed Community Bank', 'Customer ' || ${i}, '4' || lpad(${i}::text, 11, '0'), '021000021',
      'c' || ${i} || '@pay.${seedEmailDomain(seed)}', true, ${i} % 4 <> 0
    from ${series}`;
  const payoutAddresses = `insert into payout_addresses (id, user_id, label, address, is_default, confirmed_at,
      usable_at, proven_at, created_at)
    select ${seededId(seed, 'pa', i)}, ${id}, 'My wallet', ${seededAddress(seed, 'pa', i)}, true,
      ${joined} + interval '2 days', ${joined} + interval '3 days',
      case when ${i} % 5 = 0 then ${joined} + interval '3 days' end, ${joined} + interval '1 day'
    from ${series}`;
  // Most sellers have filed a W-9; the rest are the 1099-DA file's "missing" rows. The TIN stays
  // encrypted at rest in the product; the seed writes a marked stand-in nobody can take for a number.
  const w9 = `insert into tax_identities (user_id, legal_name, tin_type, tin_encrypted, tin_last4, address_line1,
      city, state, postal_code, certified_at)
    select ${id}, u.first_name || ' ' || u.last_name, 'SSN', 'seed.' || ${i}, lpad((${i} % 10000)::text, 4, '0'),
      ${i} || ' Main Street', ${pickOne(seed, 9, i, CITIES)}, ${pickOne(seed, 8, i, STATES)},
      lpad((10000 + ${i} % 89999)::text, 5, '0'), u.created_at + interval '2 days'
    from ${series} join users u on u.id = ${id}
    where ${below(seed, 10, i, 100)} < 85`;
  const bankNumbers = `insert into bank_account_numbers (user_id, bank_account_number_id, account_number,
      routing_number, bank_name, account_holder, created_at)
    select ${id}, 'ban_s${seed}_' || ${i}, '9' || lpad(${i}::text, 11, '0'), '021214891', 'OffZero Funding Bank',
      'Customer ' || ${i}, ${joined} + interval '2 days'
    from ${series}
    where ${below(seed, 11, i, 100)} < 30`;
  return [users, 'analyze users', kyc, settings, payoutAddresses, w9, bankNumbers];
}

/** Monitoring cases of every rule and status, and recurring plans with their runs. */
export function casesAndPlansStatements({ seed, customers }: SeedShape): string[] {
  const i = 'i';
  const series = `generate_series(1, ${customers}) as ${i}`;
  const rule = pickOne(seed, 20, i, [
    'structuring',
    'velocity',
    'large_first_trade',
    'name_mismatch',
    'shared_destination',
    'sanctions_hit',
  ]);
  const statusBucket = below(seed, 21, i, 100);
  const opened = `${ANCHOR} - ${below(seed, 22, i, 360)} * interval '1 day'`;
  const cases = `insert into monitoring_cases (id, user_id, rule, status, trigger_key, evidence, outcome, sar_filed_at,
      sar_reference, opened_at, updated_at, closed_at)
    select ${seededId(seed, 'case', i)}, ${seededId(seed, 'u', i)}, ${rule}, s.status, 'seed:' || ${i},
      jsonb_build_object('orders', ${below(seed, 23, i, 6)} + 3, 'note', 'seeded case'),
      case when s.status = 'closed' then s.outcome end,
      case when s.status = 'closed' and s.outcome = 'sar_filed' then '2026-01-15' end,
      case when s.status = 'closed' and s.outcome = 'sar_filed' then 'SAR-' || ${i} end,
      ${opened}, ${opened} + interval '1 day', case when s.status = 'closed' then ${opened} + interval '2 days' end
    from ${series},
      lateral (select case when ${statusBucket} < 20 then 'open' when ${statusBucket} < 35 then 'reviewing'
        else 'closed' end as status,
        case when ${statusBucket} < 90 then 'no_action' else 'sar_filed' end as outcome) s
    where ${below(seed, 24, i, 100)} < 3`;
  const frequency = pickOne(seed, 30, i, ['weekly', 'biweekly', 'monthly']);
  const plans = `insert into plans (id, user_id, amount_cents, frequency, next_run_on, anchor_on, status,
      payout_address_id, authorization_text, authorized_at, authorized_ip, bank_account_name,
      bank_account_number, bank_routing_number, created_at, updated_at)
    select ${seededId(seed, 'plan', i)}, ${seededId(seed, 'u', i)}, 2500 + ${below(seed, 31, i, 20)} * 2500,
      ${frequency}, (${ANCHOR} + (1 + ${below(seed, 32, i, 28)}) * interval '1 day')::date,
      (${ANCHOR} - 120 * interval '1 day')::date,
      ${pickByPercent(below(seed, 33, i, 100), [
        ["'active'", 80],
        ["'paused'", 10],
        ["'cancelled'", 10],
      ])},
      ${seededId(seed, 'pa', i)}, 'I authorize OffZero to debit my account for each recurring buy.',
      ${ANCHOR} - interval '120 days', '203.0.113.' || (${i} % 250), 'Customer ' || ${i},
      '4' || lpad(${i}::text, 11, '0'), '021000021', ${ANCHOR} - interval '120 days', ${ANCHOR} - interval '1 day'
    from ${series}
    where ${below(seed, 34, i, 100)} < 4`;
  const runStatus = pickByPercent(below(seed, 35, `p.n * 16 + r`, 100), [
    ["'paid'", 85],
    ["'returned'", 4],
    ["'skipped'", 6],
    ["'failed'", 5],
  ]);
  const runs = `insert into plan_runs (id, plan_id, user_id, run_on, status, amount_cents, transfer_id, return_code,
      settled_at, paid_at, returned_at, created_at, updated_at)
    select ${seededId(seed, 'run', `p.n * 16 + r`)}, p.id, p.user_id,
      (${ANCHOR} - (120 - r * 14) * interval '1 day')::date, x.status, p.amount_cents,
      case when x.status in ('paid', 'returned') then 'seed_t_' || p.n || '_' || r end,
      case when x.status = 'returned' then 'R01' end,
      case when x.status in ('paid', 'returned') then ${ANCHOR} - (117 - r * 14) * interval '1 day' end,
      case when x.status = 'paid' then ${ANCHOR} - (115 - r * 14) * interval '1 day' end,
      case when x.status = 'returned' then ${ANCHOR} - (114 - r * 14) * interval '1 day' end,
      ${ANCHOR} - (120 - r * 14) * interval '1 day', ${ANCHOR} - (114 - r * 14) * interval '1 day'
    from (select id, user_id, amount_cents, row_number() over (order by id) as n from plans
          where id in (select ${seededId(seed, 'plan', i)} from ${series})) p,
      generate_series(0, 7) as r,
      lateral (select ${runStatus} as status) x`;
  return [cases, plans, runs];
}
