import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSanctionsListFile } from '../../config/server-paths';
import { orders, sanctionedAddresses, users } from '../../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { buyOrderPayload, confirmPayoutAddresses, TEST_WALLET } from '../../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createSanctionsListService } from './sanctions-list.service';
import { findSanctionsListStatus } from './sanctions-list.repository';
import { isSanctionedAddress, SANCTIONED_ADDRESS_MESSAGE } from './sanctions-screening';

/** The two testnet addresses of the demo list (docs/design.md). */
const LISTED = 'tb1qn22l4fxz609uc3ztl0apnh6hq66efmws4x0vvc';
const LISTED_TOO = 'tb1ql82xt3nt8e4ezsylt63dqfwzax5u8hzetu8t7z';
const CLEAN = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const DEMO_LIST = readFileSync(demoSanctionsListFile, 'utf8');

describe('sanctions screening (docs/design.md)', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offzero-sanctions-'));
  /** A list file of this text, as a file: URL. */
  const listFile = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return pathToFileURL(file).href;
  };
  const ok = async (response: Awaited<ReturnType<TestApp['request']>>) => {
    if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    return response;
  };
  const asAdmin = (url: string, payload?: object) =>
    t.request({
      method: payload ? 'POST' : 'GET',
      url,
      headers: admin.auth,
      ...(payload ? { payload } : {}),
    });
  const saveWallet = (who: RegisteredCustomer, walletAddress: string, userId = who.userId) =>
    t.request({
      method: 'POST',
      url: '/api/user/settings/save',
      headers: who.auth,
      payload: { userId, walletAddress },
    });
  const saveBuy = async (who: RegisteredCustomer, walletAddress: string) =>
    t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: who.auth,
      payload: await buyOrderPayload(t, who, 100, { walletAddress }),
    });
  const expectRefused = (response: Awaited<ReturnType<TestApp['request']>>) => {
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ message: SANCTIONED_ADDRESS_MESSAGE, code: 'BAD_REQUEST' });
  };
  const orderRow = async (id: string) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const userRow = async (id: string) =>
    (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;

  beforeAll(async () => {
    t = await createTestApp({ CHAIN_POLL_SECONDS: '600', DEPOSIT_CONFIRMATIONS: '1' });
    admin = await logIn(t, 'admin@offzero.local');
    ada = await registerVerifiedCustomer(t, 'ada.sanctions@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.sanctions@example.com');
    for (const who of [ada, bob]) {
      await saveBank(t, who);
      await saveZelle(t, who, who.email);
      await fileW9(t, who);
    }
  });
  afterAll(async () => t.close());

  it('loads the demo list at start, keeping its version and load time', async () => {
    const status = await findSanctionsListStatus(t.database.db);
    expect(status).toMatchObject({ version: '2026-11-20', addressCount: 2, lastError: null });
    expect(status?.loadedAt).toBeInstanceOf(Date);
    expect(await isSanctionedAddress(t.database.db, LISTED)).toBe(true);
    expect(await isSanctionedAddress(t.database.db, LISTED_TOO.toUpperCase())).toBe(true);
    expect(await isSanctionedAddress(t.database.db, ` ${LISTED} `)).toBe(true);
    expect(await isSanctionedAddress(t.database.db, CLEAN)).toBe(false);
  });

  describe('the wallet address in settings', () => {
    it('refuses a listed address, in lower or upper case, and keeps the wallet as it was', async () => {
      await ok(await saveWallet(ada, CLEAN));
      expectRefused(await saveWallet(ada, LISTED));
      expectRefused(await saveWallet(ada, LISTED_TOO.toUpperCase()));
      const settings = await t.request({
        method: 'GET',
        url: `/api/user/settings?userId=${ada.userId}`,
        headers: ada.auth,
      });
      expect(settings.json().settings.walletAddress).toBe(CLEAN);
    });

    it("does not let another customer write someone's wallet", async () => {
      const response = await saveWallet(bob, CLEAN, ada.userId);
      expect(response.statusCode).toBe(403);
    });
  });

  describe('the buy payout address', () => {
    it('refuses a listed address at save, in lower or upper case, and saves nothing', async () => {
      const before = await t.database.db.select().from(orders).where(eq(orders.userId, ada.userId));
      expectRefused(await saveBuy(ada, LISTED));
      expectRefused(await saveBuy(ada, LISTED.toUpperCase()));
      const after = await t.database.db.select().from(orders).where(eq(orders.userId, ada.userId));
      expect(after).toHaveLength(before.length);
    });

    it('screens it again just before the bitcoin payout: a newly listed address cannot be paid', async () => {
      const saved = await ok(await saveBuy(bob, TEST_WALLET));
      const orderId = saved.json<{ order: { _id: string } }>().order._id;
      // The address was confirmed from its e-mailed link: only the sanctions list stops the payout.
      await confirmPayoutAddresses(t, bob);
      await ok(
        await t.request({
          method: 'POST',
          url: '/api/order/update',
          headers: bob.auth,
          payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
        }),
      );
      await ok(await asAdmin(`/api/admin/orders/${orderId}/mark-paid`, {}));
      // The list changed after the order was saved.
      await t.database.db.insert(sanctionedAddresses).values({ address: TEST_WALLET });
      try {
        expectRefused(await asAdmin(`/api/admin/orders/${orderId}/send-btc`, {}));
        expectRefused(await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid: 'ab'.repeat(32) }));
        expect(await orderRow(orderId)).toMatchObject({ status: 'processing', txn: null });
      } finally {
        await t.database.db.delete(sanctionedAddresses).where(eq(sanctionedAddresses.address, TEST_WALLET));
      }
      await ok(await asAdmin(`/api/admin/orders/${orderId}/send-btc`, {}));
      expect(await orderRow(orderId)).toMatchObject({ status: 'completed' });
    });
  });

  describe('a pending buy confirmed again (re-quote)', () => {
    it('refuses a listed address, in lower or upper case, and keeps the order as it was', async () => {
      const saved = await ok(await saveBuy(ada, CLEAN));
      const orderId = saved.json<{ order: { _id: string } }>().order._id;
      for (const walletAddress of [LISTED, LISTED_TOO.toUpperCase()]) {
        expectRefused(
          await t.request({
            method: 'POST',
            url: '/api/order/update',
            headers: ada.auth,
            payload: { ...(await buyOrderPayload(t, ada, 120, { walletAddress })), _id: orderId },
          }),
        );
      }
      expect(await orderRow(orderId)).toMatchObject({
        status: 'pending',
        walletAddress: CLEAN,
        valueCents: 10_000n,
      });
      // Not left pending: the other tests of this customer start from a clean dashboard.
      await ok(
        await t.request({
          method: 'POST',
          url: '/api/order/cancel',
          headers: ada.auth,
          payload: { _id: orderId, reason: 'Testing a re-quote.' },
        }),
      );
    });
  });

  describe('the address book', () => {
    const addEntry = (who: RegisteredCustomer, address: string) =>
      t.request({
        method: 'POST',
        url: '/api/payout-addresses',
        headers: who.auth,
        payload: { label: 'Listed', address },
      });

    it('refuses a listed address, in lower or upper case, and adds nothing', async () => {
      for (const address of [LISTED, LISTED.toUpperCase(), LISTED_TOO, ` ${LISTED_TOO.toUpperCase()} `]) {
        const refused = await addEntry(bob, address);
        expect(refused.statusCode, `${address}: ${refused.body}`).toBe(400);
        expect(refused.json().message).toBe(SANCTIONED_ADDRESS_MESSAGE);
      }
      const list = await ok(
        await t.request({ method: 'GET', url: '/api/payout-addresses', headers: bob.auth }),
      );
      expect(JSON.stringify(list.json())).not.toMatch(new RegExp(`${LISTED}|${LISTED_TOO}`, 'i'));
    });
  });

  describe('the input addresses of a sell deposit', () => {
    it('refuses a demo send whose sending address is not a testnet address', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/dev/chain/send',
        payload: { address: CLEAN, amount: 0.001, from: 'not-an-address' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toHaveProperty('from');
    });

    it('holds the order (sanctions_hit) and restricts the customer when an input is listed, even in upper case', async () => {
      const carol = await registerVerifiedCustomer(t, 'carol.sanctions@example.com');
      await saveBank(t, carol);
      await saveZelle(t, carol, carol.email);
      await fileW9(t, carol);
      const { payload } = await sellOrder(t, carol, 0.001);
      const saved = await ok(
        await t.request({ method: 'POST', url: '/api/order/save', headers: carol.auth, payload }),
      );
      const placed = saved.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
      await ok(
        await t.request({
          method: 'POST',
          url: '/api/dev/chain/send',
          payload: { address: placed.walletAddress.address, amount: 0.001, from: LISTED_TOO.toUpperCase() },
        }),
      );
      await t.app.depositWatcher.pollOnce();

      const row = await orderRow(placed._id);
      expect(row).toMatchObject({ status: 'processing', flag: 'sanctions_hit' });
      expect(row.flagNote).toContain(LISTED_TOO.toUpperCase());
      const customer = await userRow(carol.userId);
      expect(customer.restrictedAt).toBeInstanceOf(Date);
      expect(customer.restrictedReason).toContain('sanctions hit');

      // Held: confirmations do not release it, and no payout goes out.
      await ok(await t.request({ method: 'POST', url: '/api/dev/chain/mine', payload: { blocks: 3 } }));
      await t.app.depositWatcher.pollOnce();
      expect(await orderRow(placed._id)).toMatchObject({ flag: 'sanctions_hit' });
      const payout = await asAdmin(`/api/admin/orders/${placed._id}/payout-usd`, { reference: 'ZELLE-1' });
      expect(payout.statusCode).toBe(409);
      expect(payout.json().message).toBe('Resolve the flag first.');

      // Restricted: reads still work, trading answers 403 with the message of docs/design.md.
      expect(
        (
          await t.request({
            method: 'GET',
            url: `/api/order/list?userId=${carol.userId}`,
            headers: carol.auth,
          })
        ).statusCode,
      ).toBe(200);
      const again = await sellOrder(t, carol, 0.001);
      const refused = await t.request({
        method: 'POST',
        url: '/api/order/save',
        headers: carol.auth,
        payload: again.payload,
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Your account is under review. Contact support.');

      // The back office sees why.
      const detail = (await asAdmin(`/api/admin/users/${carol.userId}`)).json();
      expect(JSON.stringify(detail)).toContain('sanctions hit');
    });

    it('credits a deposit from a clean address as usual', async () => {
      const { payload } = await sellOrder(t, bob, 0.001);
      const saved = await ok(
        await t.request({ method: 'POST', url: '/api/order/save', headers: bob.auth, payload }),
      );
      const placed = saved.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
      await ok(
        await t.request({
          method: 'POST',
          url: '/api/dev/chain/send',
          payload: { address: placed.walletAddress.address, amount: 0.001, from: CLEAN },
        }),
      );
      await t.app.depositWatcher.pollOnce();
      expect(await orderRow(placed._id)).toMatchObject({ status: 'processing', flag: null });
      expect((await userRow(bob.userId)).restrictedAt).toBeNull();
    });
  });

  describe('refreshing the list', () => {
    const alertOf = async () => {
      const queue = (await asAdmin('/api/admin/queue')).json<{ alerts: { id: string; message: string }[] }>();
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const gauge = /^offzero_sanctions_list_alert (\d)$/m.exec(metrics)?.[1];
      return { alerts: queue.alerts, gauge };
    };
    const refreshFrom = (url: string) =>
      createSanctionsListService({ db: t.database.db, url, log: t.app.log }).refresh();

    it('keeps the last good list and raises an alert when the new one is malformed, empty or unreachable', async () => {
      expect(await alertOf()).toEqual({ alerts: [], gauge: '0' });
      const truncated = listFile('truncated.xml', DEMO_LIST.slice(0, DEMO_LIST.length / 2));
      const empty = listFile(
        'empty.xml',
        DEMO_LIST.replace(/<DistinctParties>[\s\S]*<\/DistinctParties>/, ''),
      );
      const zeroBytes = listFile('zero.xml', '');
      const missing = pathToFileURL(path.join(dir, 'no-such-file.xml')).href;
      for (const url of [truncated, empty, zeroBytes, missing]) {
        await expect(refreshFrom(url)).rejects.toThrow();
        expect(await isSanctionedAddress(t.database.db, LISTED)).toBe(true);
        const { alerts, gauge } = await alertOf();
        expect(gauge).toBe('1');
        expect(alerts).toHaveLength(1);
        expect(alerts[0]!.message).toContain('stays in force');
        expectRefused(await saveWallet(ada, LISTED));
      }
      expect(await findSanctionsListStatus(t.database.db)).toMatchObject({
        version: '2026-11-20',
        addressCount: 2,
      });
    });

    it('reads a list over HTTP in the published format; an HTTP error keeps the list', async () => {
      const newer = DEMO_LIST.replace('<Day>20</Day>', '<Day>21</Day>').replace(LISTED, CLEAN.toUpperCase());
      let answer = { status: 500, body: 'Internal error' };
      const server: Server = createServer((_request, response) => {
        response.writeHead(answer.status, { 'content-type': 'application/xml' }).end(answer.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/SDN_ADVANCED.XML`;
      try {
        await expect(refreshFrom(url)).rejects.toThrow('HTTP 500');
        expect((await alertOf()).gauge).toBe('1');
        expect(await isSanctionedAddress(t.database.db, LISTED)).toBe(true);

        answer = { status: 200, body: newer };
        expect(await refreshFrom(url)).toEqual({ version: '2026-11-21', addressCount: 2 });
        expect(await alertOf()).toEqual({ alerts: [], gauge: '0' });
        expect(await isSanctionedAddress(t.database.db, LISTED)).toBe(false);
        expect(await isSanctionedAddress(t.database.db, CLEAN)).toBe(true);
        expectRefused(await saveWallet(ada, CLEAN));
      } finally {
        await new Promise((resolve) => server.close(resolve));
        await refreshFrom(pathToFileURL(demoSanctionsListFile).href);
      }
    });
  });
});
