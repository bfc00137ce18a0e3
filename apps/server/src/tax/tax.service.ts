import { Readable } from 'node:stream';
import {
  maskTin,
  tinDigits,
  type SaveW9Request,
  type TaxExportFormat,
  type W9,
} from '@offzero/shared/api/tax';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import type { SignedInUser } from '../auth/sessions';
import { recordAdminAction } from '../admin/admin-audit.repository';
import type { Database } from '../db/database';
import type { OrderRow, TaxIdentityRow, UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import { csvRow } from './csv';
import { orderPlaceTerms } from '../places/place-check';
import { emptyTotals, renderReceipt, renderStatement, type Issuer } from './pdf-documents';
import { EXPORT_LAYOUTS, feesOf, lightningProofOf } from './tax-export-layouts';
import {
  findCompletedOrdersPage,
  findCompletedSellsWithSellers,
  findCustomer,
  findOrderTimeline,
  findOwnOrder,
  findTaxIdentitiesNotUnderKey,
  findTaxIdentity,
  replaceEncryptedTin,
  sumCompletedOrders,
  tradeTimeOf,
  upsertTaxIdentity,
  type SellerRow,
  type YearOrderCursor,
} from './tax.repository';
import { keyId, type TinCipher } from './tin-cipher';

/** Rows read per query while a file is written: memory stays flat however many orders a year has. */
const PAGE_SIZE = 500;

export interface TaxServiceDeps {
  db: Database;
  cipher: TinCipher;
  issuer: Issuer;
  /** The key new TINs are encrypted under, to find rows a rotation left behind. */
  currentKey: Buffer;
  now?: () => Date;
}

/** The W-9 as every screen and file may show it: the TIN masked, never decrypted for display. */
export function toW9(row: TaxIdentityRow): W9 {
  return {
    legalName: row.legalName,
    tinType: row.tinType,
    tin: maskTin(row.tinType, row.tinLast4),
    address: { line1: row.addressLine1, city: row.city, state: row.state, postalCode: row.postalCode },
    certifiedAt: row.certifiedAt.toISOString(),
  };
}

export interface FileDownload {
  filename: string;
  contentType: string;
  body: Readable;
}

/**
 * Tax identity (Form W-9) and tax documents (docs/design.md): customer exports, receipts,
 * statements, and the operator's 1099-DA file.
 */
export function createTaxService(deps: TaxServiceDeps) {
  const { db, cipher, issuer } = deps;
  const now = deps.now ?? (() => new Date());

  const completedOrders = (filter: CompletedOrdersFilter) => completedOrdersOf(db, filter);

  async function customerOf(userId: string) {
    const customer = await findCustomer(db, userId);
    const name = [customer?.firstName, customer?.lastName].filter(Boolean).join(' ');
    return { name, email: customer?.email ?? '' };
  }

  return {
    getW9: async (userId: string): Promise<W9 | null> => {
      const row = await findTaxIdentity(db, userId);
      return row ? toW9(row) : null;
    },

    /** Files (or replaces) the W-9; the schema already checked the TIN rules. */
    saveW9: async (user: UserRow, body: SaveW9Request): Promise<W9> => {
      const digits = tinDigits(body.tin);
      if (!digits) throw new AppError('BAD_REQUEST', 'Enter the number as 9 digits.');
      const row = await upsertTaxIdentity(db, {
        userId: user.id,
        legalName: body.legalName.trim(),
        tinType: body.tinType,
        tinEncrypted: cipher.encrypt(digits, user.id),
        tinLast4: digits.slice(-4),
        addressLine1: body.address.line1.trim(),
        city: body.address.city.trim(),
        state: body.address.state.trim().toUpperCase(),
        postalCode: body.address.postalCode.trim(),
        certifiedAt: now(),
      });
      return toW9(row);
    },

    /** The year's completed orders in one of the three layouts, written as they are read. */
    exportCsv: (user: UserRow, year: number, format: TaxExportFormat): FileDownload => {
      const layout = EXPORT_LAYOUTS[format];
      const pages = completedOrders({ year, userId: user.id });
      async function* lines() {
        yield layout.header;
        for await (const page of pages) yield page.map((order) => layout.row(order)).join('');
      }
      return {
        filename: `offzero-${format}-${year}.csv`,
        contentType: 'text/csv; charset=utf-8',
        body: Readable.from(lines()),
      };
    },

    /** The customer's own order as a PDF receipt; another customer's order is not found (404). */
    receipt: async (user: UserRow, orderId: string): Promise<FileDownload> => {
      const order = isUuid(orderId) ? await findOwnOrder(db, user.id, orderId) : undefined;
      if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
      const timeline = await findOrderTimeline(db, order.id);
      const place = await orderPlaceTerms(db, order);
      const doc = renderReceipt(issuer, order, timeline, await customerOf(user.id), place);
      return {
        filename: `offzero-receipt-${order.id.slice(0, 8)}.pdf`,
        contentType: 'application/pdf',
        body: doc as unknown as Readable,
      };
    },

    statement: async (user: UserRow, year: number): Promise<FileDownload> => {
      const totals = statementTotals(await sumCompletedOrders(db, user.id, year));
      const doc = renderStatement(issuer, {
        year,
        customer: await customerOf(user.id),
        totals,
        pages: completedOrders({ year, userId: user.id }),
      });
      return {
        filename: `offzero-statement-${year}.pdf`,
        contentType: 'application/pdf',
        body: doc as unknown as Readable,
      };
    },

    /**
     * The operator's 1099-DA worksheet (docs/design.md): one row per completed sell of the year, sellers
     * without a W-9 first. Exporting it is audited before the first byte is written.
     */
    form1099Da: async (admin: SignedInUser, year: number): Promise<FileDownload> => {
      await recordAdminAction(db, admin, {
        action: 'tax.1099da_export',
        targetType: 'tax',
        targetId: String(year),
        note: `Form 1099-DA file for ${year}`,
      });
      return {
        filename: `offzero-1099-da-${year}.csv`,
        contentType: 'text/csv; charset=utf-8',
        body: Readable.from(form1099DaLines(db, year)),
      };
    },

    /** Re-encrypts every TIN stored under a retired key with the current one; answers how many. */
    rewrapTins: async (): Promise<number> => {
      let count = 0;
      for (const row of await findTaxIdentitiesNotUnderKey(db, keyId(deps.currentKey))) {
        const plain = cipher.decrypt(row.tinEncrypted, row.userId);
        if (await replaceEncryptedTin(db, row.userId, row.tinEncrypted, cipher.encrypt(plain, row.userId))) {
          count += 1;
        }
      }
      return count;
    },
  };
}

type CompletedOrdersFilter = { year: number; userId?: string; type?: OrderRow['type'] };

/** Every completed order of the year for one customer (or everyone), page by page, oldest first. */
async function* completedOrdersOf(db: Database, filter: CompletedOrdersFilter) {
  let cursor: YearOrderCursor | null = null;
  for (;;) {
    const page = await findCompletedOrdersPage(db, filter, cursor, PAGE_SIZE);
    if (page.length === 0) return;
    yield page;
    const last = page[page.length - 1];
    if (!last || page.length < PAGE_SIZE) return;
    cursor = { id: last.id };
  }
}

/** The statement's totals from the year's sums per order type. */
function statementTotals(sums: Awaited<ReturnType<typeof sumCompletedOrders>>) {
  const totals = emptyTotals();
  for (const sum of sums) {
    totals.feesCents += sum.feeCents;
    if (sum.type === 'buy') {
      totals.buys = sum.count;
      totals.boughtSats = sum.sats;
      totals.paidCents = sum.valueCents;
    } else {
      totals.sells = sum.count;
      totals.soldSats = sum.sats;
      totals.receivedCents = sum.valueCents;
    }
  }
  return totals;
}

/** The 1099-DA worksheet's lines: its header, then the year's completed sells, PAGE_SIZE at a time. */
async function* form1099DaLines(db: Database, year: number) {
  yield csvRow(FORM_1099_DA_COLUMNS);
  // Sellers without a W-9 first, then those with one; each part by keyset, oldest trade first.
  for (const w9OnFile of [false, true]) {
    let cursor: YearOrderCursor | null = null;
    for (;;) {
      const page = await findCompletedSellsWithSellers(db, { year, w9OnFile }, cursor, PAGE_SIZE);
      yield page.map(form1099DaLine).join('');
      const last = page[page.length - 1];
      if (!last || page.length < PAGE_SIZE) break;
      cursor = { id: last.order.id };
    }
  }
}

/** One sell's line of the 1099-DA worksheet. */
function form1099DaLine({ order, email, identity }: SellerRow): string {
  return csvRow([
    identity?.legalName ?? '',
    identity ? maskTin(identity.tinType, identity.tinLast4) : '',
    identity?.tinType ?? '',
    identity?.addressLine1 ?? '',
    identity?.city ?? '',
    identity?.state ?? '',
    identity?.postalCode ?? '',
    email,
    tradeTimeOf(order).toISOString().slice(0, 10),
    // Gross proceeds of a digital asset sale are the cash less its transaction costs
    // (26 CFR 1.6045-1(d)(5)): what the customer was paid; the costs are shown beside it.
    formatUsd(order.valueCents),
    formatUsd(feesOf(order)),
    formatBtc(order.amountSats),
    'noncovered',
    identity ? `on file (certified ${identity.certifiedAt.toISOString().slice(0, 10)})` : 'missing',
    // The sale's transaction: the deposit's txid, or a Lightning payment's hash with its preimage.
    order.txn,
    lightningProofOf(order)?.preimage,
    order.id,
  ]);
}

/** The 1099-DA worksheet's columns: what Form 1099-DA asks of each sale, and the W-9 behind it. */
export const FORM_1099_DA_COLUMNS = [
  'Legal Name',
  'TIN (masked)',
  'TIN Type',
  'Address',
  'City',
  'State',
  'ZIP',
  'Email',
  'Date Sold',
  'Gross Proceeds (USD)',
  'Transaction Costs (USD)',
  'Quantity (BTC)',
  'Cost Basis',
  'W-9 Status',
  'Transaction ID',
  'Lightning Preimage',
  'Order ID',
];

export type TaxService = ReturnType<typeof createTaxService>;
