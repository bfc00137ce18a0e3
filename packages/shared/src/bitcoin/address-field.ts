import { z } from 'zod';
import { bitcoinAddressProblem, type BitcoinNetwork } from './address';

/**
 * The refusal of an address field: the words the form is known for, then what is wrong
 * ("Enter Valid Bitcoin Address. This is a mainnet address. Use a testnet address.").
 */
export function addressRefusal(heading: string, problem: string): string {
  return `${heading}. ${problem}`;
}

/**
 * A form or body field holding a bitcoin address (trimmed) that coins can be sent to on `network`
 * (any network when not given); a refusal says what is wrong, after `heading` when one is given.
 */
export function bitcoinAddressField(network?: BitcoinNetwork, heading?: string) {
  return z
    .string()
    .trim()
    .superRefine((address, context) => {
      const problem = bitcoinAddressProblem(address, network);
      if (problem === null) return;
      context.addIssue({ code: 'custom', message: heading ? addressRefusal(heading, problem) : problem });
    });
}
