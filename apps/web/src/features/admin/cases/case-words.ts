import type { CaseOutcome, CaseRule, CaseStatus } from '@offzero/shared/api/cases';
import type { PillTone } from '../components/badges';

// Monitoring cases in words: staff read "Under review", never `reviewing`.

export const CASE_RULE_LABEL: Record<CaseRule, string> = {
  structuring: 'Structuring',
  velocity: 'Many orders in 24 hours',
  large_first_trade: 'Large first trade',
  name_mismatch: 'Bank name unlike verified name',
  shared_destination: 'Address or account shared',
  sanctions_hit: 'Sanctions hit',
  scam_suspected: 'Possible scam victim',
  payout_returned: 'Payout returned',
  payment_reversed: 'Bank debit returned after payout',
};

export const CASE_RULE_HINT: Record<CaseRule, string> = {
  structuring: '3 or more orders in 24 hours, each from $2,400 up to $3,000.',
  velocity: 'More than 5 orders in 24 hours.',
  large_first_trade: 'A first trade of $5,000 or more within 7 days of identity approval.',
  name_mismatch: 'A sell paid to a bank account held under another name than the verified one.',
  shared_destination: 'A payout address or bank account number another customer also uses.',
  sanctions_hit: 'An order flagged for an address on the sanctions list.',
  scam_suspected:
    'The customer said someone asked them to buy, or cancelled a buy as a scam: call them before anything else.',
  payout_returned: 'The bank refused or returned a sell’s payout; check the account before paying again.',
  payment_reversed: "A recurring buy's bank debit came back (R10 or alike) after its bitcoin was paid out.",
};

export const CASE_STATUS_LABEL: Record<CaseStatus, string> = {
  open: 'Open',
  reviewing: 'Under review',
  closed: 'Closed',
};

export const CASE_STATUS_TONE: Record<CaseStatus, PillTone> = {
  open: 'amber',
  reviewing: 'sky',
  closed: 'slate',
};

export const CASE_OUTCOME_LABEL: Record<CaseOutcome, string> = {
  no_action: 'No action',
  sar_filed: 'SAR filed',
};
