import { centsToUsdNumber } from '@offzero/shared/money/money';
import type { Jurisdiction } from '@offzero/shared/places/places';
import type { JurisdictionRuleRow } from '../db/schema';

/** A place's rules as `GET /api/jurisdictions` lists them (USD at this edge). */
export function toJurisdiction(rule: JurisdictionRuleRow): Jurisdiction {
  return {
    code: rule.code,
    name: rule.name,
    buy: rule.buy,
    sell: rule.sell,
    newCustomerDailyUsd:
      rule.newCustomerDailyCents === null ? null : centsToUsdNumber(rule.newCustomerDailyCents),
    orderMaxUsd: rule.orderMaxCents === null ? null : centsToUsdNumber(rule.orderMaxCents),
    licence: rule.licence,
    disclosures: rule.disclosures,
    version: rule.version,
  };
}
