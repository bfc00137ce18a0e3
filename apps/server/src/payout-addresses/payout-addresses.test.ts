import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { signBip322 } from '../test/bip322-signer';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownershipProofMessage, PAYOUT_ADDRESS_LIMIT } from '@offzero/shared/api/payout-addresses';
import { createSimulatedChain, type SimulatedChain } from '../chain/simulated-chain';
import { SANCTIONED_ADDRESS_MESSAGE } from '../compliance/sanctions/sanctions-screening';
import { DEMO_ACCOUNT_VPUB } from '../rails/onchain/deposit-address';
import {
  globalSettings,
  orders,
  outboxEvents,
  payoutAddresses,
  sanctionedAddresses,
  travelRuleRecords,
} from '../db/schema';
import {
  logIn,
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import {
  TEST_WALLET,
  buyOrderPayload,
  confirmPayoutAddresses,
  payoutAddressLinks,
  placeBuyOrder,
} from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { derivePayoutAddress } from './payout-xpub';

/**
 * The payout address book (docs/design.md) through the API: adding, the e-mailed confirmation link,
 * the cooldown, removal, BIP-322 proofs, xpub entries paying fresh addresses, and the payout paths
 * that wait for a usable address. The demo's cooldown is 0; tests move `usableAt` to try one.
 */

const MNEMONIC_SEED = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const TESTNET = { public: 0x043587cf, private: 0x04358394 };
/** m/84'/1'/0' of the test mnemonic: DEMO_ACCOUNT_VPUB's private side. */
const testAccount = HDKey.fromMasterSeed(MNEMONIC_SEED, TESTNET).derive("m/84'/1'/0'");
const FIRST = 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl';
const SECOND = 'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97';
const THIRD = 'tb1qxdyjf6h5d6qxap4n2dap97q4j5ps6ua8sll0ct';
const MAINNET_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
/** On the demo sanctions list the app loads at start (docs/design.md). */
const LISTED_ADDRESS = 'tb1qn22l4fxz609uc3ztl0apnh6hq66efmws4x0vvc';
const base58check = createBase58check(sha256);

/** The testnet WIF of the receive key `m/0/index` of the test account. */
function receiveKeyWif(index: number): string {
  const key = testAccount.derive(`m/0/${index}`).privateKey!;
  return base58check.encode(Uint8Array.from([0xef, ...key, 0x01]));
}

let t: TestApp;
let chain: SimulatedChain;
let admin: RegisteredCustomer;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ BITCOIN_NETWORK: 'testnet' });
  chain = createSimulatedChain(t.database.db);
  admin = await logIn(t, 'admin@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.book@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.book@example.com');
});
afterAll(async () => t.close());

const add = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/payout-addresses', headers: who.auth, payload });
const confirm = (who: RegisteredCustomer, id: string, token: string) =>
  t.request({
    method: 'POST',
    url: `/api/payout-addresses/${id}/confirm`,
    headers: who.auth,
    payload: { token },
  });
const prove = (who: RegisteredCustomer, id: string, signature: string) =>
  t.request({
    method: 'POST',
    url: `/api/payout-addresses/${id}/proof`,
    headers: who.auth,
    payload: { signature },
  });
const remove = (who: RegisteredCustomer, id: string) =>
  t.request({ method: 'DELETE', url: `/api/payout-addresses/${id}`, headers: who.auth });
const list = async (who: RegisteredCustomer) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/payout-addresses', headers: who.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ payoutAddresses: { id: string; status: string; address: string | null }[] }>()
    .payoutAddresses;
};
const mailTo = async (who: RegisteredCustomer) =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(who.email)}` })).json<{
    messages: { subject: string; text: string }[];
  }>().messages;
const asAdmin = (url: string, payload: object = {}) =>
  t.request({ method: 'POST', url, headers: admin.auth, payload });
const orderRow = async (id: string) => {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row!;
};
const entryRows = (userId: string) =>
  t.database.db.select().from(payoutAddresses).where(eq(payoutAddresses.userId, userId));

/** A buy paid by Zelle and marked received: its bitcoin is due once its address is usable. */
async function paidBuy(who: RegisteredCustomer, valueUsd: number, overrides: Record<string, unknown> = {}) {
  const saved = await t.request({
    method: 'POST',
    url: '/api/order/save',
    headers: who.auth,
    payload: await buyOrderPayload(t, who, valueUsd, overrides),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const orderId = saved.json<{ order: { _id: string } }>().order._id;
  const paid = await t.request({
    method: 'POST',
    url: '/api/order/update',
    headers: who.auth,
    payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  expect((await asAdmin(`/api/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(200);
  return orderId;
}

describe('adding and confirming', () => {
  let entryId: string;

  it('adds an unconfirmed entry and e-mails a single-use confirmation link', async () => {
    const added = await add(ada, { label: 'Cold storage', address: FIRST });
    expect(added.statusCode, added.body).toBe(200);
    const entry = added.json().payoutAddress;
    expect(entry).toMatchObject({
      label: 'Cold storage',
      address: FIRST,
      xpub: null,
      status: 'unconfirmed',
      proven: false,
      usableAt: null,
      proofAddress: FIRST,
    });
    entryId = entry.id;
    const [mail] = await mailTo(ada);
    expect(mail!.subject).toBe('Confirm your new payout address');
    expect(mail!.text).toContain(
      `http://localhost:3000/settings/payout-addresses/confirm?id=${entryId}&token=`,
    );
    // Only the hash of the token is stored.
    const [row] = await entryRows(ada.userId);
    const [link] = await payoutAddressLinks(t, ada);
    expect(row!.confirmTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.confirmTokenHash).not.toContain(link!.token);
    expect(await list(bob)).toEqual([]);
  });

  it('answers 404 to another customer opening the link, and 400 to a wrong token', async () => {
    const [link] = await payoutAddressLinks(t, ada);
    const stranger = await confirm(bob, link!.id, link!.token);
    expect(stranger.statusCode).toBe(404);
    const wrong = await confirm(ada, link!.id, `${link!.token.slice(0, -2)}xx`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/not valid/);
    expect((await list(ada))[0]!.status).toBe('unconfirmed');
  });

  it('confirms with the link (usable at once in demo), then refuses the same link again', async () => {
    const [link] = await payoutAddressLinks(t, ada);
    const confirmed = await confirm(ada, link!.id, link!.token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().payoutAddress).toMatchObject({ id: entryId, status: 'usable' });
    expect((await mailTo(ada))[0]!.subject).toBe('Payout address confirmed');
    const again = await confirm(ada, link!.id, link!.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This link was already used: the address is confirmed.');
  });

  it('answers 410 to an expired link, and a new link works', async () => {
    const added = await add(ada, { label: 'Expiring', address: SECOND });
    const id = added.json().payoutAddress.id as string;
    const [link] = await payoutAddressLinks(t, ada);
    await t.database.db
      .update(payoutAddresses)
      .set({ confirmTokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(payoutAddresses.id, id));
    expect((await confirm(ada, id, link!.token)).statusCode).toBe(410);
    const resent = await t.request({
      method: 'POST',
      url: `/api/payout-addresses/${id}/resend`,
      headers: ada.auth,
    });
    expect(resent.statusCode).toBe(200);
    const [fresh] = await payoutAddressLinks(t, ada);
    expect(fresh!.token).not.toBe(link!.token);
    expect((await confirm(ada, id, fresh!.token)).statusCode).toBe(200);
    expect((await remove(ada, id)).statusCode).toBe(200);
  });
});

describe('bad input', () => {
  it('refuses an address of another network, and garbage', async () => {
    const mainnet = await add(ada, { label: 'Exchange', address: MAINNET_ADDRESS });
    expect(mainnet.statusCode).toBe(400);
    expect(mainnet.json().message).toBe('This is a mainnet address. Use a testnet address.');
    expect(mainnet.json().errors).toEqual({ address: 'This is a mainnet address. Use a testnet address.' });
    const typo = await add(ada, { label: 'Typo', address: 'tb1qnotanaddress' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().message).toMatch(
      /^This address contains "o", which a bc1, tb1 or bcrt1 address never does\./,
    );
  });

  it('refuses a taproot address whose program is not a public key: coins sent there are lost', async () => {
    // A testnet taproot address that decodes cleanly, but its 32 bytes are no x coordinate on secp256k1.
    const response = await add(ada, {
      label: 'Lost',
      address: 'tb1pve739yap4uxjvfk0jrey69078u0gasm2nwvv483ec6zkzulgw9xqtac2nz',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.address).toBe(
      'This taproot address does not hold a valid public key: no one could ever spend coins sent to it. Copy it again from your wallet.',
    );
  });

  it('refuses an address on the sanctions list, in any case, and stores nothing', async () => {
    const before = await list(ada);
    for (const address of [LISTED_ADDRESS, LISTED_ADDRESS.toUpperCase()]) {
      const listed = await add(ada, { label: 'Listed', address });
      expect(listed.statusCode).toBe(400);
      expect(listed.json().message).toBe(SANCTIONED_ADDRESS_MESSAGE);
    }
    expect(await list(ada)).toEqual(before);
  });

  it('refuses an extended private key in either field and never stores or echoes it', async () => {
    const before = (await entryRows(ada.userId)).length;
    const tprv = testAccount.privateExtendedKey;
    for (const payload of [
      { label: 'Oops', xpub: tprv },
      { label: 'Oops', address: tprv },
    ]) {
      const response = await add(ada, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/This is a PRIVATE key/);
      expect(response.body).not.toContain(tprv.slice(4, 30));
    }
    expect((await entryRows(ada.userId)).length).toBe(before);
    const stored = await t.database.db.select().from(outboxEvents);
    expect(JSON.stringify(stored)).not.toContain(tprv.slice(4, 30));
  });

  it('refuses a key of another network, a label with control characters, and both fields at once', async () => {
    const mainnetKey = HDKey.fromMasterSeed(MNEMONIC_SEED).derive("m/44'/0'/0'").publicExtendedKey;
    expect((await add(ada, { label: 'Main', xpub: mainnetKey })).json().message).toMatch(
      /mainnet key \(xpub\) but OffZero pays on testnet/,
    );
    const control = await add(ada, { label: 'Cold\u0007storage', address: THIRD });
    expect(control.statusCode).toBe(400);
    const bidi = await add(ada, { label: 'Cold\u202Estorage', address: THIRD });
    expect(bidi.statusCode).toBe(400);
    expect((await add(ada, { label: 'Both', address: THIRD, xpub: DEMO_ACCOUNT_VPUB })).statusCode).toBe(400);
    expect((await add(ada, { label: 'Neither' })).statusCode).toBe(400);
  });

  it('refuses the same address twice, a bech32 one in capitals too, and more than the limit of entries', async () => {
    const carl = await registerCustomer(t, 'carl.book@example.com');
    expect((await add(carl, { label: 'One', address: FIRST })).statusCode).toBe(200);
    const twice = await add(carl, { label: 'Again', address: FIRST });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This address is already in your address book.');
    // A bech32 address is the same address in capitals (as QR codes write it).
    const capitals = await add(carl, { label: 'Shouted', address: FIRST.toUpperCase() });
    expect(capitals.statusCode, capitals.body).toBe(409);
    expect(capitals.json().message).toBe('This address is already in your address book.');
    expect((await entryRows(carl.userId)).filter((row) => row.address?.toLowerCase() === FIRST)).toHaveLength(
      1,
    );
    const keyOf = (i: number) =>
      HDKey.fromMasterSeed(MNEMONIC_SEED, TESTNET).derive(`m/44'/1'/${i}'`).publicExtendedKey;
    for (let i = 1; i < PAYOUT_ADDRESS_LIMIT; i += 1) {
      expect((await add(carl, { label: `Key ${i}`, xpub: keyOf(i) })).statusCode).toBe(200);
    }
    const over = await add(carl, { label: 'One too many', xpub: keyOf(PAYOUT_ADDRESS_LIMIT) });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toMatch(/holds 20 addresses, the most it keeps/);
  });

  it("answers 404 for another customer's entry on confirm, delete, proof and resend", async () => {
    const [entry] = await list(ada);
    const [link] = await payoutAddressLinks(t, ada);
    expect((await confirm(bob, entry!.id, link!.token)).statusCode).toBe(404);
    expect((await remove(bob, entry!.id)).statusCode).toBe(404);
    expect((await prove(bob, entry!.id, 'AAAA')).statusCode).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/payout-addresses/${entry!.id}/resend`,
          headers: bob.auth,
        })
      ).statusCode,
    ).toBe(404);
    expect((await remove(bob, 'not-a-uuid')).statusCode).toBe(404);
    expect((await list(ada)).map((e) => e.id)).toContain(entry!.id);
  });
});

describe('ownership proof (BIP-322)', () => {
  it('marks an entry proven by a signature of the exact message, and refuses anything else', async () => {
    const [entry] = await list(ada);
    expect(entry!.address).toBe(FIRST);
    const message = ownershipProofMessage(ada.userId, FIRST);
    const wrongMessage = signBip322(receiveKeyWif(0), FIRST, ownershipProofMessage(bob.userId, FIRST));
    const bad = await prove(ada, entry!.id, wrongMessage);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(message);
    // The key of another address signing the right message proves nothing.
    const otherKey = signBip322(receiveKeyWif(1), SECOND, message);
    expect((await prove(ada, entry!.id, otherKey)).statusCode).toBe(400);
    expect((await prove(ada, entry!.id, 'garbage')).statusCode).toBe(400);

    const proven = await prove(ada, entry!.id, signBip322(receiveKeyWif(0), FIRST, message));
    expect(proven.statusCode, proven.body).toBe(200);
    expect(proven.json().payoutAddress).toMatchObject({ id: entry!.id, proven: true });
  });

  it("proves an xpub entry with its first address's key", async () => {
    const dana = await registerCustomer(t, 'dana.book@example.com');
    const added = await add(dana, { label: 'Phone wallet', xpub: DEMO_ACCOUNT_VPUB });
    const entry = added.json().payoutAddress;
    expect(entry.proofAddress).toBe(FIRST);
    const signature = signBip322(receiveKeyWif(0), FIRST, ownershipProofMessage(dana.userId, FIRST));
    expect((await prove(dana, entry.id, signature)).json().payoutAddress.proven).toBe(true);
  });
});

describe('removing', () => {
  it('removes an entry, e-mails the customer, and a second removal answers 404', async () => {
    const added = await add(bob, { label: 'Old wallet', address: THIRD });
    const id = added.json().payoutAddress.id as string;
    const removed = await remove(bob, id);
    expect(removed.statusCode).toBe(200);
    expect((await mailTo(bob))[0]!.subject).toBe('Payout address removed');
    expect(await list(bob)).toEqual([]);
    expect((await remove(bob, id)).statusCode).toBe(404);
    // The same address can be added again afterwards.
    expect((await add(bob, { label: 'Old wallet', address: THIRD })).statusCode).toBe(200);
  });
});

describe('buys and payouts', () => {
  it('saves a buy to a new address, and payout-btc refuses it until the customer confirms', async () => {
    const erin = await registerVerifiedCustomer(t, 'erin.book@example.com');
    const orderId = await paidBuy(erin, 60);
    const [entry] = await list(erin);
    expect(entry).toMatchObject({ address: TEST_WALLET, status: 'unconfirmed' });
    expect((await orderRow(orderId)).payoutAddressId).toBe(entry!.id);

    const txid = 'a1'.repeat(32);
    const refused = await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid, vout: 0 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'The payout waits until the customer confirms the address from the link we e-mailed them.',
    );
    const sendRefused = await asAdmin(`/api/admin/orders/${orderId}/send-btc`);
    expect(sendRefused.statusCode).toBe(409);
    const detail = await t.request({
      method: 'GET',
      url: `/api/admin/orders/${orderId}`,
      headers: admin.auth,
    });
    expect(detail.json().payoutDestination).toMatchObject({
      due: false,
      entry: { status: 'unconfirmed', kind: 'address' },
    });
    // The customer's order says so too.
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${erin.userId}`,
      headers: erin.auth,
    });
    expect(listed.json().result.orders[0]).toMatchObject({
      _id: orderId,
      payoutHold: 'We send your bitcoin once you confirm the address: open the link we e-mailed you.',
    });

    // Confirmed, but within the cooldown: still refused.
    await confirmPayoutAddresses(t, erin);
    await t.database.db
      .update(payoutAddresses)
      .set({ usableAt: new Date(Date.now() + 3_600_000) })
      .where(eq(payoutAddresses.id, entry!.id));
    const cooling = await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid, vout: 0 });
    expect(cooling.statusCode).toBe(409);
    expect(cooling.json().message).toMatch(/confirmed recently; it can be paid from .* UTC\./);

    await t.database.db
      .update(payoutAddresses)
      .set({ usableAt: new Date(Date.now() - 1000) })
      .where(eq(payoutAddresses.id, entry!.id));
    const paid = await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid, vout: 0 });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().order.status).toBe('completed');
  });

  it('requires a proven address at or above the amount set in the settings editor', async () => {
    const fay = await registerVerifiedCustomer(t, 'fay.book@example.com');
    const putProofAmount = async (usd: number) => {
      const current = (
        await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin.auth })
      ).json().settings;
      expect(current.order.proof_required_usd).toBeTypeOf('number');
      return t.request({
        method: 'PUT',
        url: '/api/admin/settings',
        headers: admin.auth,
        payload: { ...current, order: { ...current.order, proof_required_usd: usd } },
      });
    };
    expect((await putProofAmount(-5)).json().errors).toMatchObject({
      'order.proof_required_usd': 'Amounts cannot be negative.',
    });
    expect((await putProofAmount(50)).statusCode).toBe(200);
    try {
      const orderId = await paidBuy(fay, 70, { walletAddress: SECOND });
      await confirmPayoutAddresses(t, fay);
      const txid = 'b2'.repeat(32);
      const refused = await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid, vout: 0 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/Payouts of \$50\.00 or more need a proven address/);
      const [entry] = await list(fay);
      const signature = signBip322(receiveKeyWif(1), SECOND, ownershipProofMessage(fay.userId, SECOND));
      expect((await prove(fay, entry!.id, signature)).statusCode).toBe(200);
      expect((await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid, vout: 0 })).statusCode).toBe(
        200,
      );
    } finally {
      expect((await putProofAmount(0)).statusCode).toBe(200);
    }
    const [row] = await t.database.db.select().from(globalSettings);
    expect(row!.proofRequiredCents).toBeNull();
  });

  it('pays xpub buys fresh addresses, skipping one with history; two buys never share an index', async () => {
    const gus = await registerVerifiedCustomer(t, 'gus.book@example.com');
    const added = await add(gus, { label: 'Hardware wallet', xpub: DEMO_ACCOUNT_VPUB });
    const entryId = added.json().payoutAddress.id as string;
    await confirmPayoutAddresses(t, gus);
    // The key's first address already received coins elsewhere: it is skipped.
    await chain.send(FIRST, 10_000n);

    const first = await paidBuy(gus, 61, { walletAddress: undefined, payoutAddressId: entryId });
    const second = await paidBuy(gus, 62, { walletAddress: undefined, payoutAddressId: entryId });
    expect((await orderRow(first)).walletAddress).toBeNull();
    // Two back-office reads at once resolve both buys.
    const details = await Promise.all(
      [first, second, first, second].map((id) =>
        t.request({ method: 'GET', url: `/api/admin/orders/${id}`, headers: admin.auth }),
      ),
    );
    for (const detail of details) expect(detail.statusCode, detail.body).toBe(200);
    const [a, b] = [await orderRow(first), await orderRow(second)];
    expect(new Set([a.walletAddress, b.walletAddress])).toEqual(new Set([SECOND, THIRD]));
    expect(new Set([a.payoutIndex, b.payoutIndex])).toEqual(new Set([1, 2]));
    expect(details[0]!.json().payoutDestination).toMatchObject({ due: true, address: a.walletAddress });

    // Paying it records the derived address on the payout.
    const sent = await asAdmin(`/api/admin/orders/${first}/send-btc`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await chain.outputsTo(a.walletAddress!)).length).toBe(1);
  });

  it('shows staff a listed derived address as the reason an xpub buy is held, and never pays it', async () => {
    const jan = await registerVerifiedCustomer(t, 'jan.book@example.com');
    const added = await add(jan, { label: 'Hardware wallet', xpub: DEMO_ACCOUNT_VPUB });
    const entryId = added.json().payoutAddress.id as string;
    await confirmPayoutAddresses(t, jan);
    // The key's next addresses are put on the list after the customer added it.
    const derived = Array.from({ length: 30 }, (_, i) =>
      derivePayoutAddress(DEMO_ACCOUNT_VPUB, i, 'testnet'),
    );
    await t.database.db.insert(sanctionedAddresses).values(derived.map((address) => ({ address })));
    try {
      const orderId = await paidBuy(jan, 63, { walletAddress: undefined, payoutAddressId: entryId });
      const detail = await t.request({
        method: 'GET',
        url: `/api/admin/orders/${orderId}`,
        headers: admin.auth,
      });
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json().payoutDestination).toMatchObject({
        due: false,
        message: SANCTIONED_ADDRESS_MESSAGE,
      });
      expect((await orderRow(orderId)).walletAddress).toBeNull();
      const sent = await asAdmin(`/api/admin/orders/${orderId}/send-btc`);
      expect(sent.statusCode).toBeGreaterThanOrEqual(400);
      expect(sent.statusCode).toBeLessThan(500);
    } finally {
      await t.database.db.delete(sanctionedAddresses).where(inArray(sanctionedAddresses.address, derived));
    }
  });

  it("records the derived address an xpub buy pays in the order's Travel Rule record", async () => {
    const ida = await registerVerifiedCustomer(t, 'ida.book@example.com');
    const added = await add(ida, { label: 'Hardware wallet', xpub: DEMO_ACCOUNT_VPUB });
    const entryId = added.json().payoutAddress.id as string;
    await confirmPayoutAddresses(t, ida);
    const saved = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: ida.auth,
      payload: await buyOrderPayload(t, ida, 3_100, {
        walletAddress: undefined,
        payoutAddressId: entryId,
        walletOwnership: { own: false, institution: 'Hardware wallet vendor' },
      }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const orderId = saved.json<{ order: { _id: string } }>().order._id;
    const paid = await t.request({
      method: 'POST',
      url: '/api/order/update',
      headers: ida.auth,
      payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    // Received (a buy this large is marked paid by two admins; that is not what is tested here).
    await t.database.db.update(orders).set({ paymentConfirmedAt: new Date() }).where(eq(orders.id, orderId));
    const record = async () =>
      (await t.database.db.select().from(travelRuleRecords).where(eq(travelRuleRecords.orderId, orderId)))[0];
    // Saved before any address was derived: the record waits for the one the payout uses.
    expect((await record())?.walletAddress).toBe('');
    const detail = await t.request({
      method: 'GET',
      url: `/api/admin/orders/${orderId}`,
      headers: admin.auth,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const derived = (await orderRow(orderId)).walletAddress;
    expect(derived).toMatch(/^tb1q/);
    expect(await record()).toMatchObject({ walletAddress: derived, ownWallet: false });
  });

  it("refuses a buy naming another customer's entry (404) and keeps a plain entry's address", async () => {
    const [adaEntry] = await list(ada);
    const payload = await buyOrderPayload(t, bob, 50, {
      payoutAddressId: adaEntry!.id,
      walletAddress: undefined,
    });
    const stolen = await t.request({ method: 'POST', url: '/api/order/save', headers: bob.auth, payload });
    expect(stolen.statusCode).toBe(404);
    const mismatch = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: ada.auth,
      payload: await buyOrderPayload(t, ada, 50, { payoutAddressId: adaEntry!.id, walletAddress: SECOND }),
    });
    expect(mismatch.statusCode).toBe(400);
  });

  it('makes the Settings wallet the default entry, confirmed like any other', async () => {
    const hal = await registerVerifiedCustomer(t, 'hal.book@example.com');
    const saved = await t.request({
      method: 'POST',
      url: '/api/user/settings/save',
      headers: hal.auth,
      payload: { userId: hal.userId, walletAddress: SECOND },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().message).toBe(
      'Wallet address saved. Open the link we e-mailed you to confirm it before we send bitcoin there.',
    );
    const [entry] = await list(hal);
    expect(entry).toMatchObject({ address: SECOND, status: 'unconfirmed', isDefault: true });
    expect((await mailTo(hal))[0]!.subject).toBe('Confirm your new payout address');
    // A buy to it reuses the entry.
    const orderId = await placeBuyOrder(t, hal, 50, SECOND);
    expect((await list(hal)).length).toBe(1);
    expect((await orderRow(orderId)).payoutAddressId).toBe(entry!.id);
  });
});
