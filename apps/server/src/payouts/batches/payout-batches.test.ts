import { eq, inArray } from 'drizzle-orm';
import { base64, hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatedChain, type SimulatedChain } from '../../chain/simulated-chain';
import {
  globalSettings,
  orders,
  payoutAddresses,
  payoutBatchOrders,
  payoutBatches,
  payouts,
  sanctionedAddresses,
  simChainTransactions,
} from '../../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { createCrashingChain } from '../../test/crashing-chain';
import { pdfText } from '../../test/document-text';
import { placeConfirmedBuyOrder, TEST_WALLET } from '../../test/buy-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import {
  DEMO_PAYOUT_WALLET_XPUB,
  fundDemoPayoutWallet,
  signWithDemoPayoutWallet,
} from './demo-payout-wallet';
import { parsePayoutWallet } from './payout-wallet';
import { RBF_SEQUENCE } from './payout-psbt';

/**
 * Payout batches (docs/design.md) end to end on the demo chain: build, demo-sign, upload, broadcast,
 * complete; every tampered upload refused; claim before send; fee bump.
 */
let t: TestApp;
let chain: SimulatedChain;
let admin: RegisteredCustomer;
let ada: RegisteredCustomer;
/** The app's chain: the next broadcast can reach the chain and then fail, as a crash after sending. */
const crashing = createCrashingChain();

beforeAll(async () => {
  t = await createTestApp({ BITCOIN_NETWORK: 'testnet' }, undefined, {
    providers: { chain: crashing.chain },
  });
  chain = createSimulatedChain(t.database.db);
  crashing.attach(chain);
  await fundDemoPayoutWallet(chain, parsePayoutWallet(DEMO_PAYOUT_WALLET_XPUB, 'testnet'));
  admin = await logIn(t, 'admin@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.batches@example.com');
});
afterAll(async () => t.close());

const post = (url: string, payload: object = {}, who: RegisteredCustomer = admin) =>
  t.request({ method: 'POST', url, headers: who.auth, payload });
const get = (url: string, who: RegisteredCustomer = admin) =>
  t.request({ method: 'GET', url, headers: who.auth });

const orderRow = async (id: string) => {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row!;
};

async function paidBuy(valueUsd: number, who: RegisteredCustomer = ada): Promise<string> {
  const orderId = await placeConfirmedBuyOrder(t, who, valueUsd);
  const paid = await t.request({
    method: 'POST',
    url: '/api/order/update',
    headers: who.auth,
    payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
  });
  expect(paid.statusCode).toBe(200);
  expect((await post(`/api/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(200);
  return orderId;
}

async function build(feeTier = 'standard') {
  const answer = await post('/api/admin/payouts/batches', { feeTier });
  return answer;
}

async function demoSign(batchId: string): Promise<string> {
  const signed = await post(`/api/dev/payouts/batches/${batchId}/sign`);
  expect(signed.statusCode).toBe(200);
  return signed.json().psbt as string;
}

/** Abandons every unsigned batch, so each test starts with its own due buys. */
async function abandonOpenBatches() {
  const open = await t.database.db
    .select({ id: payoutBatches.id })
    .from(payoutBatches)
    .where(eq(payoutBatches.status, 'awaiting_signature'));
  for (const { id } of open)
    expect((await post(`/api/admin/payouts/batches/${id}/abandon`)).statusCode).toBe(200);
}

/** A PSBT changed by `edit` and then properly signed by the wallet: what a tricked signer would return. */
function tamperAndSign(unsigned: string, edit: (tx: Transaction) => void): string {
  const tx = Transaction.fromPSBT(base64.decode(unsigned));
  edit(tx);
  return signWithDemoPayoutWallet(base64.encode(tx.toPSBT()));
}

describe('payout batches', () => {
  it('refuses staff-only calls to customers and anonymous callers', async () => {
    expect((await post('/api/admin/payouts/batches', { feeTier: 'standard' }, ada)).statusCode).toBe(403);
    expect((await get('/api/admin/payouts/batches', ada)).statusCode).toBe(403);
    expect((await get('/api/admin/payouts/due', ada)).statusCode).toBe(403);
    expect(
      (await post('/api/dev/payouts/batches/00000000-0000-4000-8000-000000000000/sign', {}, ada)).statusCode,
    ).toBe(403);
    const anonymous = await t.request({ method: 'GET', url: '/api/admin/payouts/batches' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 400 with a message when no buy is due, and refuses an unknown fee tier', async () => {
    const none = await build();
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/No buys are due for payout/);
    expect((await build('instant')).statusCode).toBe(400);
    expect((await get('/api/admin/payouts/batches/not-a-batch')).statusCode).toBe(404);
  });

  it('pays two buys in one signed transaction, each order with its own output, once', async () => {
    const first = await paidBuy(80);
    const second = await paidBuy(120);
    const due = await get('/api/admin/payouts/due');
    expect(due.json().dueBuys.map((d: { orderId: string }) => d.orderId)).toEqual(
      expect.arrayContaining([first, second]),
    );

    const built = await build('economy');
    expect(built.statusCode).toBe(200);
    const { batch, psbt } = built.json();
    expect(batch).toMatchObject({ status: 'awaiting_signature', txid: null, feeTier: 'economy' });
    expect([...batch.orderIds].sort()).toEqual([first, second].sort());
    expect(batch.feeSats).toBeGreaterThan(0);

    // The PSBT a hardware wallet gets: RBF inputs with their BIP32 derivations, change that is ours.
    const unsigned = Transaction.fromPSBT(base64.decode(psbt));
    expect(unsigned.inputsLength).toBeGreaterThan(0);
    const input = unsigned.getInput(0);
    expect(input.sequence).toBe(RBF_SEQUENCE);
    expect(input.bip32Derivation?.[0]?.[1].path.length).toBe(5);
    expect(unsigned.outputsLength).toBe(3);

    // The file download is the same PSBT.
    const file = await get(`/api/admin/payouts/batches/${batch.id}/psbt`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/\.psbt"/);
    expect(base64.encode(file.rawPayload)).toBe(psbt);

    // The work queue keeps both buys under "Bitcoin to send", each with the batch that holds it.
    const queue = (await get('/api/admin/queue')).json<{
      bitcoinToSend: { _id: string; payoutBatch: { id: string; status: string } | null }[];
    }>();
    for (const orderId of [first, second]) {
      expect(queue.bitcoinToSend.find((row) => row._id === orderId)?.payoutBatch).toEqual({
        id: batch.id,
        status: 'awaiting_signature',
      });
    }

    // The order page names the batch too (and offers no payout by hand).
    const detail = await get(`/api/admin/orders/${first}`);
    expect(detail.json().payoutBatch).toEqual({ id: batch.id, status: 'awaiting_signature' });

    // An order in an unsettled batch cannot be paid by hand.
    const manual = await post(`/api/admin/orders/${first}/payout-btc`, { txid: 'ab'.repeat(32) });
    expect(manual.statusCode).toBe(409);
    expect(manual.json().message).toMatch(/payout batch/);

    const signed = await demoSign(batch.id);
    const uploaded = await post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt: signed });
    expect(uploaded.statusCode).toBe(200);
    const done = uploaded.json().batch;
    expect(done.status).toBe('broadcast');
    expect(done.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(done.explorerUrl).toContain(done.txid);

    for (const orderId of [first, second]) {
      const row = await orderRow(orderId);
      expect(row.status).toBe('completed');
      expect(row.txn).toBe(done.txid);
    }
    const rows = await t.database.db
      .select()
      .from(payouts)
      .where(inArray(payouts.orderId, [first, second]));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.state === 'settled' && row.txid === done.txid)).toBe(true);
    expect(new Set(rows.map((row) => row.vout)).size).toBe(2);
    // The chain sees the payout at the customer's address, at the recorded output.
    const { walletAddress } = await orderRow(first);
    const seen = await chain.outputsTo(walletAddress!);
    const firstPayout = rows.find((row) => row.orderId === first)!;
    expect(seen.some((o) => o.txid === done.txid && o.vout === firstPayout.vout)).toBe(true);
    // The customer's timeline shows each payout with the batch's transaction and the order's own output.
    for (const payout of rows) {
      const story = (await get(`/api/order/${payout.orderId}/timeline`, ada)).json<{
        timeline: { kind: string; title: string; reference: unknown }[];
      }>();
      expect(story.timeline.at(-1)).toMatchObject({
        kind: 'status',
        title: 'Bitcoin sent',
        reference: { kind: 'tx', value: done.txid, vout: payout.vout },
      });
    }
    // The customer's receipt names the transaction and the order's own output.
    const receipt = await get(`/api/order/${first}/receipt`, ada);
    expect(receipt.statusCode).toBe(200);
    const text = await pdfText(receipt.rawPayload);
    expect(text).toContain(done.txid.slice(0, 16));
    expect(text).toMatch(new RegExp(`Transaction output\\s+${firstPayout.vout}\\b`));
    // Paid buys leave the work queue.
    const after = (await get('/api/admin/queue')).json<{ bitcoinToSend: { _id: string }[] }>();
    expect(after.bitcoinToSend.map((row) => row._id)).not.toContain(first);

    // The same signed PSBT again: harmless, still one payout per order.
    const again = await post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt: signed });
    expect(again.statusCode).toBe(200);
    expect(again.json().batch.txid).toBe(done.txid);
    expect(
      await t.database.db
        .select()
        .from(payouts)
        .where(inArray(payouts.orderId, [first, second])),
    ).toHaveLength(2);

    // Mined: the batch reads as confirmed with its confirmations.
    await chain.mine(1);
    const confirmed = await get(`/api/admin/payouts/batches/${batch.id}`);
    expect(confirmed.json().batch).toMatchObject({ status: 'confirmed', confirmations: 1 });
    const list = await get('/api/admin/payouts/batches');
    expect(list.json().batches.some((b: { id: string }) => b.id === batch.id)).toBe(true);
  });

  it('refuses every signed PSBT that is not exactly the batch', async () => {
    await paidBuy(90);
    await paidBuy(95);
    const built = await build();
    expect(built.statusCode).toBe(200);
    const { batch, psbt } = built.json();
    const upload = (signed: string) =>
      post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt: signed });
    const expectRefused = async (signed: string, message: RegExp) => {
      const answer = await upload(signed);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toMatch(message);
    };
    const thief = 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97';

    await expectRefused(
      tamperAndSign(psbt, (tx) =>
        tx.addOutputAddress(thief, 10_000n, { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }),
      ),
      /has 4 outputs, but the batch has 3/,
    );
    await expectRefused(
      tamperAndSign(psbt, (tx) => tx.updateOutput(0, { amount: tx.getOutput(0).amount! + 5_000n })),
      /not one of the batch's outputs/,
    );
    const changeAt = [0, 1, 2].find(
      (i) => Transaction.fromPSBT(base64.decode(psbt)).getOutput(i).bip32Derivation,
    )!;
    await expectRefused(
      tamperAndSign(psbt, (tx) =>
        tx.updateOutput(changeAt, {
          script: Transaction.fromPSBT(base64.decode(psbt)).getOutput(changeAt === 0 ? 1 : 0).script,
        }),
      ),
      /not one of the batch's outputs/,
    );
    // Raising the fee far above the cap: the change shrinks and the network would take the rest.
    await expectRefused(
      tamperAndSign(psbt, (tx) => tx.updateOutput(changeAt, { amount: tx.getOutput(changeAt).amount! / 2n })),
      /not one of the batch's outputs/,
    );
    // Dropping an order's output (its amount left to the fee).
    const dropped = Transaction.fromPSBT(base64.decode(psbt));
    const kept = [0, 1, 2].filter((i) => i !== (changeAt === 0 ? 1 : 0)).map((i) => dropped.getOutput(i));
    const rebuilt = new Transaction({ version: 2 });
    for (let i = 0; i < dropped.inputsLength; i += 1) rebuilt.addInput(dropped.getInput(i));
    for (const output of kept) rebuilt.addOutput({ script: output.script!, amount: output.amount! });
    await expectRefused(
      signWithDemoPayoutWallet(base64.encode(rebuilt.toPSBT())),
      /has 2 outputs, but the batch has 3/,
    );
    // Spending a coin that is not in the batch.
    const fundingTxid = (await t.database.db.select().from(simChainTransactions).limit(1))[0]!.txid;
    await expectRefused(
      tamperAndSign(psbt, (tx) =>
        tx.updateInput(0, { txid: hex.decode(fundingTxid.replace(/^./, 'f')) }, true),
      ),
      /spends a coin that is not in the batch/,
    );
    await expectRefused('bm90IGEgcHNidA==', /not a PSBT/);
    await expectRefused(psbt, /not fully signed/);
    const garbage = await upload('%%% not base64 %%%');
    expect(garbage.statusCode).toBe(400);

    // Nothing of the above moved money or wrote a payout.
    const stillOpen = await get(`/api/admin/payouts/batches/${batch.id}`);
    expect(stillOpen.json().batch.status).toBe('awaiting_signature');
    expect(
      await t.database.db.select().from(payouts).where(inArray(payouts.orderId, batch.orderIds)),
    ).toHaveLength(0);

    // An abandoned batch is another state: its uploads and signing are refused, its orders free again.
    expect((await post(`/api/admin/payouts/batches/${batch.id}/abandon`)).statusCode).toBe(200);
    const signedLate = signWithDemoPayoutWallet(psbt);
    const late = await upload(signedLate);
    expect(late.statusCode).toBe(409);
    expect((await post(`/api/dev/payouts/batches/${batch.id}/sign`)).statusCode).toBe(409);
    expect((await post(`/api/admin/payouts/batches/${batch.id}/abandon`)).statusCode).toBe(409);
  });

  it('puts an order in one batch however many builds run at once, and leaves flagged orders out', async () => {
    await abandonOpenBatches();
    const flagged = await paidBuy(70);
    await t.database.db.update(orders).set({ flag: 'duplicate_reference' }).where(eq(orders.id, flagged));
    const answers = await Promise.all([build(), build(), build()]);
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 400)).toBe(true);
    const ids = ok.flatMap((a) => a.json().batch.orderIds as string[]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(flagged);
    await abandonOpenBatches();
  });

  it('leaves out a buy whose address is in its cooldown or was listed since, and pays it once it may', async () => {
    await abandonOpenBatches();
    const orderId = await paidBuy(65);
    const { payoutAddressId } = await orderRow(orderId);
    const entryUsableAt = (usableAt: Date) =>
      t.database.db.update(payoutAddresses).set({ usableAt }).where(eq(payoutAddresses.id, payoutAddressId!));

    // Confirmed an hour ago with a day's cooldown: listed as due but not usable, and no batch takes it.
    await entryUsableAt(new Date(Date.now() + 23 * 3_600_000));
    try {
      const due = (await get('/api/admin/payouts/due')).json().dueBuys as {
        orderId: string;
        usable: boolean;
        reason: string | null;
      }[];
      expect(due.find((buy) => buy.orderId === orderId)).toMatchObject({
        usable: false,
        reason: expect.stringMatching(/confirmed recently; it can be paid from .* UTC\./),
      });
      const cooling = await build();
      expect(cooling.statusCode).toBe(400);
      expect(cooling.json().message).toMatch(/wait for a usable payout address/);
    } finally {
      await entryUsableAt(new Date(Date.now() - 1_000));
    }

    // The sanctions list now names the address: screened again at build, the buy is left out.
    await t.database.db.insert(sanctionedAddresses).values({ address: TEST_WALLET });
    try {
      const listed = await build();
      expect(listed.statusCode).toBe(400);
      expect(
        await t.database.db.select().from(payoutBatchOrders).where(eq(payoutBatchOrders.orderId, orderId)),
      ).toHaveLength(0);
    } finally {
      await t.database.db.delete(sanctionedAddresses).where(eq(sanctionedAddresses.address, TEST_WALLET));
    }

    const built = await build();
    expect(built.statusCode).toBe(200);
    expect(built.json().batch.orderIds).toContain(orderId);
    await abandonOpenBatches();
  });

  it('completes from the recorded intent after a crash between broadcast and recording, sending once', async () => {
    const orderId = await paidBuy(110);
    const built = await build();
    expect(built.statusCode).toBe(200);
    const { batch } = built.json();
    expect(batch.orderIds).toContain(orderId);
    const signed = await demoSign(batch.id);

    crashing.failAfterNextBroadcast();
    const crashed = await post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt: signed });
    expect(crashed.statusCode).toBe(503);
    const [intent] = await t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));
    expect(intent?.state).toBe('submitted');
    expect((await orderRow(orderId)).status).toBe('processing');

    const retried = await post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt: signed });
    expect(retried.statusCode).toBe(200);
    const txid = retried.json().batch.txid as string;
    const row = await orderRow(orderId);
    expect(row).toMatchObject({ status: 'completed', txn: txid });
    const onChain = await chain.outputsTo(row.walletAddress!);
    // Every buy here pays the same test wallet: one output per order of the batch, one transaction.
    expect(onChain.filter((o) => o.txid === txid)).toHaveLength(batch.orderIds.length);

    // RBF: a fee-bumped version pays the same order from the same coins and replaces the first.
    const bumped = await post(`/api/admin/payouts/batches/${batch.id}/bump-fee`, { feeTier: 'priority' });
    expect(bumped.statusCode).toBe(200);
    const version = bumped.json().batch;
    expect(version).toMatchObject({
      status: 'awaiting_signature',
      replacesBatchId: batch.id,
      orderIds: batch.orderIds,
    });
    expect(version.feeSats).toBeGreaterThan(batch.feeSats);
    const bumpSigned = await demoSign(version.id);
    const sent = await post(`/api/admin/payouts/batches/${version.id}/signed`, { psbt: bumpSigned });
    expect(sent.statusCode).toBe(200);
    const newTxid = sent.json().batch.txid as string;
    expect(newTxid).not.toBe(txid);
    expect((await get(`/api/admin/payouts/batches/${batch.id}`)).json().batch.status).toBe('replaced');
    expect((await orderRow(orderId)).txn).toBe(newTxid);
    const [payout] = await t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));
    expect(payout).toMatchObject({ state: 'settled', txid: newTxid });
    // The customer's timeline keeps the first payout and adds the replacement with its own transaction.
    const story = (await get(`/api/order/${orderId}/timeline`, ada)).json<{
      timeline: { kind: string; title: string; reference: { value: string; vout?: number } | null }[];
    }>();
    expect(story.timeline.find((step) => step.title === 'Bitcoin sent')?.reference?.value).toBe(txid);
    expect(story.timeline.at(-1)).toMatchObject({
      kind: 'payout_replaced',
      title: 'Bitcoin re-sent with a higher network fee',
      reference: { kind: 'tx', value: newTxid, vout: payout!.vout },
    });
    expect(await chain.transactionStatus(txid)).toBeNull();
    // The replaced version can no longer be bumped; the new one confirms.
    expect(
      (await post(`/api/admin/payouts/batches/${batch.id}/bump-fee`, { feeTier: 'priority' })).statusCode,
    ).toBe(409);
    await chain.mine(1);
    expect((await get(`/api/admin/payouts/batches/${version.id}`)).json().batch.status).toBe('confirmed');
  });

  it('refuses the whole signed upload, naming the order, when its customer removed the address since the build', async () => {
    await abandonOpenBatches();
    const cy = await registerVerifiedCustomer(t, 'cy.batches@example.com');
    const kept = await paidBuy(75);
    const orderId = await paidBuy(85, cy);
    const built = await build();
    expect(built.statusCode).toBe(200);
    const { batch } = built.json();
    expect(batch.orderIds).toEqual(expect.arrayContaining([kept, orderId]));
    const signed = await demoSign(batch.id);
    const sentBefore = (await chain.outputsTo(TEST_WALLET)).length;

    const { payoutAddressId } = await orderRow(orderId);
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/payout-addresses/${payoutAddressId}`,
      headers: cy.auth,
    });
    expect(removed.statusCode).toBe(200);

    const upload = await post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt: signed });
    expect(upload.statusCode).toBe(409);
    expect(upload.json().message).toBe(
      `Order #${orderId.slice(0, 8)} cannot be paid now. The customer removed this payout address: ask them ` +
        'for another one. Nothing was broadcast: abandon this batch and build a new one.',
    );
    // Nothing was sent, not even to the other customer of the batch; the batch still waits.
    expect((await chain.outputsTo(TEST_WALLET)).length).toBe(sentBefore);
    expect(
      await t.database.db
        .select()
        .from(payouts)
        .where(inArray(payouts.orderId, [kept, orderId])),
    ).toEqual([]);
    expect((await get(`/api/admin/payouts/batches/${batch.id}`)).json().batch.status).toBe(
      'awaiting_signature',
    );
    expect((await orderRow(orderId)).status).toBe('processing');

    // A new batch leaves the buy out and pays the other one.
    await abandonOpenBatches();
    // The cheapest tier: the simulated fee market is random, and one small buy alone can cross the fee cap.
    const rebuilt = await build('economy');
    expect(rebuilt.statusCode, rebuilt.body).toBe(200);
    expect(rebuilt.json().batch.orderIds).toContain(kept);
    expect(rebuilt.json().batch.orderIds).not.toContain(orderId);
    await abandonOpenBatches();
  });

  it('refuses a signed upload while the address it pays is unconfirmed, cooling down, unproven above the threshold or listed', async () => {
    await abandonOpenBatches();
    const orderId = await paidBuy(140);
    const built = await build();
    expect(built.statusCode).toBe(200);
    const { batch } = built.json();
    const signed = await demoSign(batch.id);
    const upload = () => post(`/api/admin/payouts/batches/${batch.id}/signed`, { psbt: signed });
    const { payoutAddressId, valueCents } = await orderRow(orderId);
    const [entry] = await t.database.db
      .select()
      .from(payoutAddresses)
      .where(eq(payoutAddresses.id, payoutAddressId!));
    const setEntry = (values: Partial<typeof payoutAddresses.$inferInsert>) =>
      t.database.db.update(payoutAddresses).set(values).where(eq(payoutAddresses.id, payoutAddressId!));
    const expectRefused = async (reason: RegExp) => {
      const answer = await upload();
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toContain(`Order #${orderId.slice(0, 8)} cannot be paid now.`);
      expect(answer.json().message).toMatch(reason);
    };

    try {
      await setEntry({ confirmedAt: null, usableAt: null });
      await expectRefused(/waits until the customer confirms the address/);
      await setEntry({ confirmedAt: entry!.confirmedAt, usableAt: new Date(Date.now() + 3_600_000) });
      await expectRefused(/confirmed recently; it can be paid from .* UTC\./);
      await setEntry({ usableAt: entry!.usableAt });
      await t.database.db.update(globalSettings).set({ proofRequiredCents: valueCents });
      await expectRefused(/need a proven address/);
      await t.database.db.update(globalSettings).set({ proofRequiredCents: null });
      await t.database.db.insert(sanctionedAddresses).values({ address: TEST_WALLET });
      await expectRefused(/The address is on the sanctions list\./);
    } finally {
      await setEntry({ confirmedAt: entry!.confirmedAt, usableAt: entry!.usableAt });
      await t.database.db.update(globalSettings).set({ proofRequiredCents: null });
      await t.database.db.delete(sanctionedAddresses).where(eq(sanctionedAddresses.address, TEST_WALLET));
    }
    expect(await t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId))).toEqual([]);

    // Every rule passes again: the same signed upload pays.
    const paid = await upload();
    expect(paid.statusCode).toBe(200);
    expect(paid.json().batch.status).toBe('broadcast');
    expect((await orderRow(orderId)).status).toBe('completed');
  });
});

describe('the simulated chain', () => {
  it('rejects a double spend and an unknown or unsigned input', async () => {
    // A confirmed batch's transaction spends its coins: broadcasting a different spend of them fails.
    const [confirmedBatch] = await t.database.db
      .select()
      .from(payoutBatches)
      .where(eq(payoutBatches.status, 'confirmed'))
      .limit(1);
    expect(confirmedBatch).toBeDefined();
    const plan = Transaction.fromPSBT(base64.decode(confirmedBatch!.unsignedPsbt));
    plan.updateOutput(0, { amount: plan.getOutput(0).amount! - 1_000n });
    const doubleSpend = Transaction.fromPSBT(
      base64.decode(signWithDemoPayoutWallet(base64.encode(plan.toPSBT()))),
    );
    doubleSpend.finalize();
    await expect(chain.broadcast(doubleSpend.hex)).rejects.toThrow(/Double spend/);
    await expect(chain.broadcast('00')).rejects.toThrow();
    const unsigned = Transaction.fromPSBT(base64.decode(confirmedBatch!.unsignedPsbt));
    unsigned.updateOutput(0, { amount: unsigned.getOutput(0).amount! - 2_000n });
    await expect(chain.broadcast(hex.encode(unsigned.unsignedTx))).rejects.toThrow(/not signed/);
  });
});

describe('payout batch limits', () => {
  let capped: TestApp;
  let staff: RegisteredCustomer;
  let bob: RegisteredCustomer;
  beforeAll(async () => {
    capped = await createTestApp({ BITCOIN_NETWORK: 'testnet', PAYOUT_FEE_CAP_PERCENT: '0.01' });
    staff = await logIn(capped, 'admin@offzero.local');
    bob = await registerVerifiedCustomer(capped, 'bob.batches@example.com');
  });
  afterAll(async () => capped.close());

  it('refuses a fee over the cap, and a wallet without enough coins', async () => {
    const orderId = await placeConfirmedBuyOrder(capped, bob, 60);
    await capped.request({
      method: 'POST',
      url: '/api/order/update',
      headers: bob.auth,
      payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
    });
    await capped.request({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/mark-paid`,
      headers: staff.auth,
      payload: {},
    });
    const overCap = await capped.request({
      method: 'POST',
      url: '/api/admin/payouts/batches',
      headers: staff.auth,
      payload: { feeTier: 'priority' },
    });
    expect(overCap.statusCode).toBe(400);
    expect(overCap.json().message).toMatch(/over the 0.01% cap/);

    // Every coin of the wallet spent elsewhere: nothing to pay with.
    await capped.database.db.update(simChainTransactions).set({ spentByTxid: 'f'.repeat(64) });
    const empty = await capped.request({
      method: 'POST',
      url: '/api/admin/payouts/batches',
      headers: staff.auth,
      payload: { feeTier: 'economy' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/not enough .* Fund it/);
  });
});
