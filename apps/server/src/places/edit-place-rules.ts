import { usdNumberToCents, MoneyParseError, centsToUsdNumber } from '@offzero/shared/money/money';
import {
  isPlaceCode,
  PLACE_MESSAGES,
  placeName,
  type JurisdictionUpdate,
} from '@offzero/shared/places/places';
import { recordAdminAction } from '../admin/admin-audit.repository';
import type { FourEyesPending } from '@offzero/shared/api/admin';
import type { SignedInUser } from '../auth/sessions';
import type { Database } from '../db/database';
import type { JurisdictionRuleRow } from '../db/schema';
import { isUniqueViolation } from '../db/postgres-errors';
import { AppError } from '../http/errors';
import {
  closeEditRequest,
  findOpenEditRequest,
  findPlaceRule,
  insertRuleVersion,
  saveEditRequest,
} from './places.repository';

/** The rules an edit asks for, in stored units: what the second admin must ask for exactly. */
type RequestedRules = Record<
  'buy' | 'sell' | 'newCustomerDailyCents' | 'orderMaxCents' | 'licence' | 'disclosures',
  string
>;

function requestedRules(update: JurisdictionUpdate): RequestedRules {
  const cents = (usd: number | null) => {
    if (usd === null) return '';
    try {
      return usdNumberToCents(usd).toString();
    } catch (error) {
      if (error instanceof MoneyParseError) throw new AppError('BAD_REQUEST', error.message);
      throw error;
    }
  };
  return {
    buy: String(update.buy),
    sell: String(update.sell),
    newCustomerDailyCents: cents(update.newCustomerDailyUsd),
    orderMaxCents: cents(update.orderMaxUsd),
    licence: update.licence,
    disclosures: update.disclosures,
  };
}

function sameRules(a: Record<string, unknown>, b: RequestedRules): boolean {
  return (Object.keys(b) as (keyof RequestedRules)[]).every((key) => a[key] === b[key]);
}

/** A place's rules for the audit trail, in the units staff read. */
function auditRules(
  rule: Pick<
    JurisdictionRuleRow,
    'buy' | 'sell' | 'newCustomerDailyCents' | 'orderMaxCents' | 'licence' | 'disclosures'
  >,
) {
  return {
    buy: rule.buy,
    sell: rule.sell,
    newCustomerDailyUsd:
      rule.newCustomerDailyCents === null ? null : centsToUsdNumber(rule.newCustomerDailyCents),
    orderMaxUsd: rule.orderMaxCents === null ? null : centsToUsdNumber(rule.orderMaxCents),
    licence: rule.licence,
    disclosures: rule.disclosures,
  };
}

/**
 * `PUT /api/admin/jurisdictions/:code` (docs/design.md, "Places and the scam shield"): four eyes, as for
 * large payouts. The first admin's call records the request (audited) and changes nothing (202); the
 * same admin again → 409; another admin asking for exactly the same rules writes them as the next
 * rules version (200, audited with before and after); other rules → 409 naming who asked for what.
 * A code that is not a US state, DC or territory → 404.
 */
export async function editPlaceRules(
  db: Database,
  staff: SignedInUser,
  code: string,
  update: JurisdictionUpdate,
): Promise<{ done: JurisdictionRuleRow } | { pending: FourEyesPending }> {
  const upper = code.toUpperCase();
  if (!isPlaceCode(upper)) throw new AppError('NOT_FOUND', PLACE_MESSAGES.unknown(code));
  const asked = requestedRules(update);
  return db
    .transaction(async (tx) => {
      const open = await findOpenEditRequest(tx, upper);
      if (open && open.requestedByUserId !== staff.user.id) {
        if (!sameRules(open.rules, asked)) {
          throw new AppError(
            'CONFLICT',
            `${open.requestedByEmail} requested other rules for ${placeName(upper)}. Nothing was done: ` +
              `carry out exactly what was requested, or ask ${open.requestedByEmail} to request it again.`,
          );
        }
        const before = await findPlaceRule(tx, upper);
        const written = await insertRuleVersion(tx, {
          code: upper,
          name: placeName(upper),
          buy: update.buy,
          sell: update.sell,
          newCustomerDailyCents: asked.newCustomerDailyCents ? BigInt(asked.newCustomerDailyCents) : null,
          orderMaxCents: asked.orderMaxCents ? BigInt(asked.orderMaxCents) : null,
          licence: update.licence,
          disclosures: update.disclosures,
          createdBy: `admin:${staff.user.id}`,
        });
        await closeEditRequest(tx, open.id, staff.user.id);
        await recordAdminAction(tx, staff, {
          action: 'jurisdiction.edited',
          targetType: 'jurisdiction',
          targetId: upper,
          before: before ? { version: before.version, ...auditRules(before) } : null,
          after: { version: written.version, ...auditRules(written), requestedBy: open.requestedByEmail },
        });
        return { done: written };
      }
      if (open && sameRules(open.rules, asked)) {
        throw new AppError(
          'SECOND_APPROVER_REQUIRED',
          'You already asked for this. A second admin must carry it out.',
        );
      }
      const recorded = await saveEditRequest(tx, {
        ...(open ? { id: open.id } : {}),
        code: upper,
        rules: asked,
        requestedByUserId: staff.user.id,
        requestedByEmail: staff.user.email,
      });
      await recordAdminAction(tx, staff, {
        action: 'jurisdiction.four_eyes_requested',
        targetType: 'jurisdiction',
        targetId: upper,
        before: open ? { requestId: open.id, rules: open.rules } : null,
        after: { requestId: recorded.id, rules: asked },
      });
      return {
        pending: {
          // The words of every four-eyes request (admin/use-cases/four-eyes.ts).
          message: 'Waiting for a second approver.',
          approval: {
            id: recorded.id,
            action: 'jurisdiction.edit' as const,
            requestedBy: recorded.requestedByEmail,
          },
        },
      };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) {
        throw new AppError('CONFLICT', 'Another admin asked for this just now. Reload the page.');
      }
      throw error;
    });
}
