/**
 * The scale seed's orders (docs/performance.md, "At scale"), a range of order numbers at a time: buys
 * and sells of every status and rail, each with its timeline, its payout, its deposit, its bank credit
 * and Travel Rule record where it has one. A few customers trade a lot and most a little (the customer
 * is drawn with a square law), as on a real service.
 */
import { ANCHOR, type SeedShape } from './seed-customers';
import { below, pickByPercent, seededAddress, seededHex64, seededId, uniform } from './seed-sql';

/** Order `j`'s drawn facts, one row per order of the range, with the columns every statement needs. */
function drawnOrders({ seed, customers, openEvery = 2_000 }: SeedShape, from: number, to: number): string {
  const j = 'j';
  const statusBucket = below(seed, 40, j, 10000);
  const methodBucket = below(seed, 41, j, 100);
  // Open orders are the last hours' worth, as on a service that keeps up: 1 order in 2,000 is still
  // processing and as many are pending (the first two of every 2,000, so a small seed has some too).
  const status = `case when ${j} % ${openEvery} = 1 then 'processing' when ${j} % ${openEvery} = 2 then 'pending'
    when ${statusBucket} < 8000 then 'completed' when ${statusBucket} < 9000 then 'expired' else 'cancelled' end`;
  const buyMethod = pickByPercent(methodBucket, [
    ["'paypal'", 25],
    ["'zelle'", 30],
    ["'ach'", 30],
    ["'wire'", 15],
  ]);
  const sellMethod = pickByPercent(methodBucket, [
    ["'zelle'", 35],
    ["'ach'", 35],
    ["'wire'", 15],
    ["'instant'", 15],
  ]);
  return `select ${j}, ${seededId(seed, 'o', j)} as id,
      1 + floor(${customers} * power(${uniform(seed, 42, j)}, 2))::int as customer,
      ${below(seed, 43, j, 100)} < 65 as is_buy, ${status} as status,
      ${below(seed, 44, j, 100)} < 15 as lightning, ${methodBucket} as method_bucket,
      2000 + floor(power(${uniform(seed, 45, j)}, 3) * 1000000)::bigint as value_cents,
      8000000 + ${below(seed, 46, j, 3000000)} as price_cents,
      ${uniform(seed, 47, j)} as age, ${below(seed, 48, j, 1000)} as flag_bucket,
      ${buyMethod} as buy_method, ${sellMethod} as sell_method
    from generate_series(${from}, ${to}) as ${j}`;
}

/** The orders of the range, with amounts and dates as the product would have written them. */
export function orderStatement(shape: SeedShape, from: number, to: number): string {
  const { seed } = shape;
  // Finished orders spread over the year before the anchor; open ones are from the last hours, and a
  // pending one from within its quote's 15 minutes (older ones the expiry job would have expired).
  const created = `case when d.status = 'pending' then now() - d.age * interval '10 minutes'
    when d.status = 'processing' then now() - d.age * interval '6 hours'
    else ${ANCHOR} - d.age * interval '365 days' end`;
  return `insert into orders (id, user_id, type, status, amount_sats, value_cents, price_cents, platform_fee_cents,
      network_fee_cents, bank_fee_cents, quote_expires_at, wallet_address, deposit_index, payout_address_id,
      payment_method, payment_submitted_at, payment_confirmed_at, payment_confirmed_by, paypal_order_id,
      paypal_capture_id, bank_txn, txn, confirmations, received_sats, lightning_invoice, lightning_payment_hash,
      lightning_expires_at, lightning_paid_at, flag, flag_note, cancel_reason, jurisdiction_code, completed_at,
      created_at, updated_at)
    select id, user_id, type, status, amount_sats, value_cents, price_cents, platform_fee_cents, network_fee_cents,
      bank_fee_cents, created_at + interval '15 minutes', wallet_address,
      case when type = 'sell' and not lightning then nextval('deposit_index_seq') end,
      case when type = 'buy' and not lightning then ${seededId(seed, 'pa', 'customer')} end,
      method, case when paid then created_at + interval '5 minutes' end,
      case when paid and type = 'buy' and method <> 'paypal' then created_at + interval '40 minutes' end,
      case when paid and type = 'buy' and method <> 'paypal' then 'admin@offzero.local' end,
      case when method = 'paypal' and status <> 'expired' then 'SEED${seed}PP' || j end,
      case when method = 'paypal' and paid then 'SEED${seed}CAP' || j end,
      case when paid and type = 'sell' and status = 'completed' then 'SEED' || j end,
      case when paid and (type = 'sell' or status = 'completed') then ${seededHex64(seed, 'tx', 'j')} end,
      case when paid and type = 'sell' then 6 else 0 end,
      case when paid and type = 'sell' then amount_sats end,
      case when lightning then 'lntb' || (amount_sats / 10) || 'n1p' || md5('${seed}:ln:' || j) end,
      case when lightning then ${seededHex64(seed, 'lnhash', 'j')} end,
      case when lightning then created_at + interval '15 minutes' end,
      case when lightning and paid then created_at + interval '2 minutes' end,
      case when flag_bucket < 4 then (array['over_limit', 'duplicate_reference', 'capture_mismatch', 'payment_reversed'])[1 + flag_bucket] end,
      case when flag_bucket < 4 then 'seeded for review' end,
      case when status = 'cancelled' then 'customer cancelled' end,
      'US-CA', case when status = 'completed' then created_at + interval '2 hours' end,
      created_at, case when status = 'completed' then created_at + interval '2 hours'
        when status = 'pending' then created_at else created_at + interval '30 minutes' end
    from (
      select d.*, c.created_at, c.type, c.method, c.amount_sats, c.platform_fee_cents, c.network_fee_cents,
        c.bank_fee_cents, d.status in ('processing', 'completed') as paid,
        case when c.type = 'sell' and not d.lightning then ${seededAddress(seed, 'dep', 'd.j')}
          when c.type = 'buy' and not d.lightning then ${seededAddress(seed, 'pa', 'd.customer')} end as wallet_address,
        ${seededId(seed, 'u', 'd.customer')} as user_id
      from (${drawnOrders(shape, from, to)}) d,
      lateral (select ${created} as created_at,
        case when d.is_buy then 'buy' else 'sell' end as type,
        case when d.is_buy then d.buy_method else d.sell_method end as method,
        d.value_cents * 150 / 10000 as platform_fee_cents,
        case when d.is_buy and not d.lightning then 150 when d.is_buy then 1 else 0 end as network_fee_cents,
        case when not d.is_buy and d.sell_method = 'wire' then 2500 else 0 end as bank_fee_cents,
        greatest(1, case when d.is_buy
          then (d.value_cents - d.value_cents * 150 / 10000 - 150) * 100000000 / d.price_cents
          else (d.value_cents + d.value_cents * 150 / 10000) * 100000000 / d.price_cents end) as amount_sats) c
    ) o`;
}

/** The seed's orders of the range, for the statements that follow each order (by primary key). */
function rangeOrders(seed: number, from: number, to: number): string {
  return `generate_series(${from}, ${to}) as j join orders o on o.id = ${seededId(seed, 'o', 'j')}`;
}

/** Each order's timeline: created, then paid, then finished, as its status says. */
export function timelineStatement(seed: number, from: number, to: number): string {
  return `insert into order_events (order_id, from_status, to_status, actor, reason, created_at)
    select o.id, e.from_status, e.to_status, e.actor, e.reason, o.created_at + e.after
    from ${rangeOrders(seed, from, to)},
    lateral (values
      (1, null, 'pending', 'user:' || o.user_id, 'order created', interval '0'),
      (2, 'pending', 'processing', 'system', 'payment received', interval '5 minutes'),
      (3, 'processing', o.status, 'system', case when o.status = 'completed' then 'order completed' end,
        interval '2 hours'),
      (4, 'pending', o.status, 'system', case when o.status = 'expired' then 'quote expired'
        else 'customer cancelled' end, interval '20 minutes')
    ) as e(step, from_status, to_status, actor, reason, after)
    where e.step = 1 or (e.step = 2 and o.status in ('processing', 'completed'))
      or (e.step = 3 and o.status = 'completed') or (e.step = 4 and o.status in ('expired', 'cancelled'))`;
}

/** One payout per paid order: settled for a completed one, requested for one still processing. */
export function payoutStatement(seed: number, from: number, to: number): string {
  return `insert into payouts (order_id, kind, state, rail, sender, address, amount_sats, txid, vout, reference,
      created_by, created_at, sent_at)
    select o.id, case when o.type = 'buy' then 'btc' else 'usd' end,
      case when o.status = 'completed' then 'settled' else 'requested' end, p.rail,
      case p.rail when 'onchain' then 'batch' when 'lightning' then 'lightning' when 'ach' then 'nacha-file'
        when 'instant' then 'bank-api' else 'operator' end,
      case when p.rail = 'onchain' then o.wallet_address end,
      case when o.type = 'buy' then o.amount_sats end,
      case when o.status = 'completed' and p.rail = 'onchain' then ${seededHex64(seed, 'payout', 'j')} end,
      case when o.status = 'completed' and p.rail = 'onchain' then 0 end,
      case when o.status = 'completed' and p.rail <> 'onchain' then 'SEEDPAY' || j end,
      'system', o.created_at + interval '1 hour',
      case when o.status = 'completed' then o.created_at + interval '2 hours' end
    from ${rangeOrders(seed, from, to)},
    lateral (select case when o.type = 'sell' then o.payment_method
      when o.lightning_invoice is not null then 'lightning' else 'onchain' end as rail) p
    where o.status = 'completed' or (o.status = 'processing' and (o.type = 'sell' or o.payment_confirmed_at is not null))`;
}

/** The deposit seen for each paid on-chain sell. */
export function depositStatement(seed: number, from: number, to: number): string {
  return `insert into deposits (order_id, address, txid, vout, value_sats, block_height, confirmations, first_seen_at,
      updated_at)
    select o.id, o.wallet_address, o.txn, 1, o.received_sats, 800000 + j / 1000, o.confirmations,
      o.created_at + interval '5 minutes', o.created_at + interval '1 hour'
    from ${rangeOrders(seed, from, to)}
    where o.type = 'sell' and o.deposit_index is not null and o.status in ('processing', 'completed')`;
}

/** A bank credit for each paid bank-funded buy of a customer with an account number, and the Travel Rule record of each order of $3,000 or more. */
export function creditAndTravelRuleStatements(seed: number, from: number, to: number): string[] {
  const credits = `insert into bank_inbound_credits (trace_number, bank_transfer_id, rail, bank_account_number_id,
      user_id, amount_cents, originator_name, received_at, status, order_id, resolved_by, resolved_at, created_at)
    select 'S${seed}T' || j, 'seed_tr_' || j, o.payment_method, b.bank_account_number_id, o.user_id,
      o.value_cents, b.account_holder, o.created_at + interval '30 minutes', 'matched', o.id, 'system',
      o.created_at + interval '31 minutes', o.created_at + interval '30 minutes'
    from ${rangeOrders(seed, from, to)} join bank_account_numbers b on b.user_id = o.user_id
    where o.type = 'buy' and o.payment_method in ('ach', 'wire') and o.payment_confirmed_at is not null`;
  const travelRule = `insert into travel_rule_records (order_id, user_id, customer_name, customer_address,
      payment_identifier, amount_sats, value_cents, wallet_address, own_wallet, institution, order_created_at,
      created_at, updated_at)
    select o.id, o.user_id, u.first_name || ' ' || u.last_name, 'US', o.payment_method, o.amount_sats,
      o.value_cents, o.wallet_address, j % 10 <> 0, case when j % 10 = 0 then 'Seed Exchange' end,
      o.created_at, o.created_at, o.created_at
    from ${rangeOrders(seed, from, to)} join users u on u.id = o.user_id
    where o.value_cents >= 300000 and o.wallet_address is not null`;
  return [credits, travelRule];
}
