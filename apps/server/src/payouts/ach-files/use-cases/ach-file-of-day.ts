import { ACH_FILE_MESSAGES } from '@offzero/shared/api/ach-files';
import type { SignedInUser } from '../../../auth/sessions';
import type { AchOrigination } from '../../../config/app-config';
import type { Database, Transaction } from '../../../db/database';
import type { AchFileRow, OrderRow } from '../../../db/schema';
import { AppError } from '../../../http/errors';
import { recordAdminAction } from '../../../admin/admin-audit.repository';
import { lockOrder } from '../../../orders/order.repository';
import {
  bankDayAt,
  bankDayStart,
  bankTimeAt,
  isCalendarDay,
  nextDay,
  settlementDayOnOrAfter,
} from '../../../rails/ach/business-day';
import { writeNachaFile, type NachaEntryInput, type NachaFileInput } from '../../../rails/ach/nacha-file';
import { claimPayout } from '../../payout-state';
import { hasBlockingPayout, isDueSellPayout } from '../../due-sell-payouts.repository';
import { achEntryOf, nachaText } from '../ach-entry';
import {
  claimAchFileDay,
  findAchFile,
  findDueAchSells,
  recordAchFileEntry,
  releaseAchFileDay,
  saveAchFile,
} from '../ach-file.repository';

export interface AchFileDeps {
  db: Database;
  /** Confirmations a sell deposit needs before its dollars are due. */
  confirmationsRequired: number;
  /** Who sends the file, to which bank; null: no file can be made. */
  origination: AchOrigination | null;
  now?: () => Date;
}

/** A day's file: stored (downloaded before, the same bytes again) or made now. */
export interface AchFileView {
  day: string;
  effectiveEntryDate: string;
  stored: boolean;
  contents: string;
  entryCount: number;
  totalCents: bigint;
  createdAt: Date | null;
  skipped: { orderId: string; reason: string }[];
}

/** The day a client asks for, checked: a real calendar day, today in New York or earlier. */
export function fileDayOf(raw: string, now: Date): string {
  if (!isCalendarDay(raw)) throw new AppError('BAD_REQUEST', ACH_FILE_MESSAGES.badDate);
  if (raw > bankDayAt(now)) throw new AppError('BAD_REQUEST', ACH_FILE_MESSAGES.futureDate);
  return raw;
}

/** Entries settle on a banking day no earlier than today: a past day's file settles on the next one. */
function effectiveDateOf(day: string, now: Date): string {
  const today = bankDayAt(now);
  return settlementDayOnOrAfter(day > today ? day : today);
}

/** What the day's file holds or would hold, without making it (the Payouts page's figures). */
export async function previewAchFile(deps: AchFileDeps, raw: string): Promise<AchFileView> {
  const now = deps.now?.() ?? new Date();
  const day = fileDayOf(raw, now);
  const stored = await findAchFile(deps.db, day);
  if (stored) return storedView(stored, []);
  const { entries, skipped } = entriesOf(await dueSells(deps.db, deps, day));
  return unstoredView(deps, day, now, entries, skipped);
}

/**
 * The day's file (docs/design.md, "ACH file"). The first download writes it and marks its payouts
 * `submitted` in one transaction: the day's row is claimed first, so two staff downloading at once
 * get one file, and each order is locked and checked again before its payout is claimed. Later
 * downloads answer the stored bytes. A day with nothing due stores nothing.
 */
export async function downloadAchFile(
  deps: AchFileDeps,
  request: { staff: SignedInUser; day: string },
): Promise<AchFileView> {
  const now = deps.now?.() ?? new Date();
  const day = fileDayOf(request.day, now);
  const stored = await findAchFile(deps.db, day);
  if (stored) return storedView(stored, []);
  const origination = requireOrigination(deps);
  const due = await dueSells(deps.db, deps, day);
  if (due.length === 0) {
    // Another download may have filed them since the first look: its file is the day's.
    const filed = await findAchFile(deps.db, day);
    return filed ? storedView(filed, []) : unstoredView(deps, day, now, [], []);
  }
  const actor = `admin:${request.staff.user.id}`;
  const effectiveEntryDate = effectiveDateOf(day, now);
  return deps.db.transaction(async (tx) => {
    if (!(await claimAchFileDay(tx, { businessDay: day, effectiveEntryDate, createdBy: actor }))) {
      const first = await findAchFile(tx, day);
      if (!first) throw new Error(`the ACH file of ${day} vanished`);
      return storedView(first, []);
    }
    const locked: OrderRow[] = [];
    for (const candidate of due) {
      const order = await lockOrder(tx, candidate.id);
      if (order && (await isStillDue(tx, deps, order))) locked.push(order);
    }
    const { entries, skipped } = entriesOf(locked);
    if (entries.length === 0) {
      await releaseAchFileDay(tx, day);
      return unstoredView(deps, day, now, [], skipped);
    }
    const file = writeNachaFile(fileInput(origination, day, effectiveEntryDate, now, entries));
    const traces = file.traceNumbers[0] ?? [];
    for (const [index, { order, entry }] of entries.entries()) {
      const traceNumber = traces[index]!;
      const payout = await claimPayout(
        tx,
        {
          orderId: order.id,
          kind: 'usd',
          rail: 'ach',
          sender: 'nacha-file',
          address: null,
          amountSats: null,
          reference: traceNumber,
          createdBy: actor,
        },
        'submitted',
      );
      await recordAchFileEntry(tx, { day, order, payout, traceNumber, amountCents: entry.amountCents });
    }
    const saved = await saveAchFile(tx, day, {
      contents: file.text,
      entryCount: file.entryCount,
      totalCents: file.totalCreditCents,
    });
    await recordAdminAction(tx, request.staff, {
      action: 'ach_file.download',
      targetType: 'ach_file',
      targetId: day,
      after: {
        entryCount: saved.entryCount,
        totalCents: saved.totalCents,
        orderIds: entries.map((e) => e.order.id),
      },
    });
    return storedView(saved, skipped);
  });
}

function requireOrigination(deps: AchFileDeps): AchOrigination {
  if (!deps.origination) throw new AppError('CONFLICT', ACH_FILE_MESSAGES.notConfigured);
  return deps.origination;
}

function dueSells(db: Database | Transaction, deps: AchFileDeps, day: string): Promise<OrderRow[]> {
  return findDueAchSells(db, {
    before: bankDayStart(nextDay(day)),
    confirmationsRequired: deps.confirmationsRequired,
  });
}

/** Under the order's lock: still due by the shared rule (payouts/due-sell-payouts.repository.ts). */
async function isStillDue(tx: Transaction, deps: AchFileDeps, order: OrderRow): Promise<boolean> {
  return (
    isDueSellPayout(order, { rail: 'ach', confirmationsRequired: deps.confirmationsRequired }) &&
    !(await hasBlockingPayout(tx, order.id))
  );
}

type FileEntry = { order: OrderRow; entry: NachaEntryInput };

function entriesOf(orders: OrderRow[]): { entries: FileEntry[]; skipped: AchFileView['skipped'] } {
  const entries: FileEntry[] = [];
  const skipped: AchFileView['skipped'] = [];
  for (const order of orders) {
    const line = achEntryOf(order);
    if ('entry' in line) entries.push({ order, entry: line.entry });
    else skipped.push({ orderId: order.id, reason: line.problem });
  }
  return { entries, skipped };
}

function fileInput(
  origination: AchOrigination,
  day: string,
  effectiveEntryDate: string,
  now: Date,
  entries: FileEntry[],
): NachaFileInput {
  return {
    immediateDestination: origination.odfiRoutingNumber,
    immediateDestinationName: nachaText(origination.odfiName),
    immediateOrigin: origination.companyId,
    immediateOriginName: nachaText(origination.companyName),
    creationDate: bankDayAt(now),
    creationTime: bankTimeAt(now),
    fileIdModifier: 'A',
    referenceCode: day.replaceAll('-', ''),
    batches:
      entries.length === 0
        ? []
        : [
            {
              companyName: nachaText(origination.companyName),
              companyId: origination.companyId,
              secCode: 'PPD',
              entryDescription: 'BTC SALE',
              effectiveEntryDate,
              originatingDfi: origination.odfiRoutingNumber,
              entries: entries.map(({ entry }) => entry),
            },
          ],
  };
}

function storedView(file: AchFileRow, skipped: AchFileView['skipped']): AchFileView {
  return {
    day: file.businessDay,
    effectiveEntryDate: file.effectiveEntryDate,
    stored: true,
    contents: file.contents,
    entryCount: file.entryCount,
    totalCents: file.totalCents,
    createdAt: file.createdAt,
    skipped,
  };
}

/** A file not (yet) stored: its figures, and its text when the originator is set up. */
function unstoredView(
  deps: AchFileDeps,
  day: string,
  now: Date,
  entries: FileEntry[],
  skipped: AchFileView['skipped'],
): AchFileView {
  const effectiveEntryDate = effectiveDateOf(day, now);
  const contents = deps.origination
    ? writeNachaFile(fileInput(deps.origination, day, effectiveEntryDate, now, entries)).text
    : '';
  return {
    day,
    effectiveEntryDate,
    stored: false,
    contents,
    entryCount: entries.length,
    totalCents: entries.reduce((sum, { entry }) => sum + entry.amountCents, 0n),
    createdAt: null,
    skipped,
  };
}
