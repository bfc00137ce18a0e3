import type { NachaEntryInput } from '../../rails/ach/nacha-file';
import { isAbaRoutingNumber } from '../../rails/ach/nacha-file';
import type { OrderRow } from '../../db/schema';

/**
 * One ACH sell's line of the day's file (docs/design.md, "ACH file"): a checking-account credit (22;
 * customers do not tell us the account type, and banks post a 22 to a savings account too) of the
 * sell's payout to the bank details kept with the order, or why it cannot be one.
 */
export function achEntryOf(order: OrderRow): { entry: NachaEntryInput } | { problem: string } {
  const details = order.receivingDetails ?? {};
  const routingNumber = (details.routing_number ?? '').trim();
  const accountNumber = (details.account_number ?? '').replace(/[\s-]/g, '');
  const name = nachaText(details.account_holder ?? '');
  if (!isAbaRoutingNumber(routingNumber)) {
    return { problem: `The routing number "${routingNumber}" fails its check digit: pay this one by hand.` };
  }
  if (!/^[A-Za-z0-9]{1,17}$/.test(accountNumber)) {
    return { problem: 'The account number is not 1 to 17 letters or digits: pay this one by hand.' };
  }
  if (name === '') return { problem: 'The account holder’s name is missing: pay this one by hand.' };
  return {
    entry: {
      transactionCode: '22',
      routingNumber,
      accountNumber: accountNumber.toUpperCase(),
      amountCents: order.valueCents,
      individualId: order.id.replaceAll('-', '').slice(0, 15).toUpperCase(),
      individualName: name,
    },
  };
}

/** A name as a NACHA file carries it: upper-case ASCII, accents dropped, other signs made spaces. */
export function nachaText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 .,&'/-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
