import {
  BankError,
  type AchSecCode,
  type BankProvider,
  type BankTransfer,
  type BankTransferRequest,
  type RoutingNumberInfo,
} from './bank-provider';
import {
  readIncreaseEventEnvelope,
  readIncreaseInboundCredit,
  readIncreaseTransfer,
  transferTypeOfId,
} from './increase-format';
import { isValidRoutingNumber } from './routing-number';
import { verifyBankWebhookSignature } from './webhook-signature';

export interface IncreaseOptions {
  /** `https://api.increase.com` (or the sandbox, `https://sandbox.increase.com`). */
  apiUrl: string;
  apiKey: string;
  /** The account our customers' account numbers belong to and transfers are sent from. */
  accountId: string;
  /** The account number instant transfers (RTP, FedNow) are sent from. */
  sourceAccountNumberId: string;
  /** The secret of our event subscription, which signs its webhooks. */
  webhookSecret: string;
  /** The company name ACH receivers read. */
  companyName: string;
  fetch?: typeof fetch;
}

const SEC_CODES: Record<AchSecCode, string> = {
  PPD: 'prearranged_payments_and_deposit',
  CCD: 'corporate_credit_or_debit',
  WEB: 'internet_initiated',
};

/** Increase's return reasons for an inbound ACH credit and an inbound wire we refuse. */
const ACH_CREDIT_REFUSED = 'credit_entry_refused_by_receiver';
const WIRE_REFUSED = 'creditor_request';

/**
 * Increase's REST API (docs/design.md, "Bank provider"): Bearer API key, JSON bodies, an
 * `Idempotency-Key` header on every call that creates something, thin events whose object is read
 * back, and webhooks signed in `Increase-Webhook-Signature`.
 */
export function createIncreaseBank(options: IncreaseOptions): BankProvider {
  const api = increaseClient(options);

  const pathOfId = (id: string): string => {
    const type = transferTypeOfId(id);
    if (!type)
      throw new BankError('This is not the id of a transfer at the bank.', 404, 'object_not_found_error');
    return `/${type}s/${encodeURIComponent(id)}`;
  };

  const bank: BankProvider = {
    kind: 'increase',

    async createAccountNumber({ name, idempotencyKey }) {
      const body = await api(
        'POST',
        '/account_numbers',
        { account_id: options.accountId, name },
        idempotencyKey,
      );
      const { id, account_number: accountNumber, routing_number: routingNumber, status } = body;
      if (typeof id !== 'string' || typeof accountNumber !== 'string' || typeof routingNumber !== 'string')
        throw new BankError('The bank answered an account number without its numbers.');
      return {
        id,
        accountNumber,
        routingNumber,
        name: typeof body.name === 'string' ? body.name : name,
        status: status === 'disabled' || status === 'canceled' ? status : 'active',
      };
    },

    async lookUpRoutingNumber(routingNumber): Promise<RoutingNumberInfo | null> {
      if (!isValidRoutingNumber(routingNumber)) return null;
      const body = await api('GET', `/routing_numbers?routing_number=${encodeURIComponent(routingNumber)}`);
      const entry = Array.isArray(body.data)
        ? (body.data[0] as Record<string, unknown> | undefined)
        : undefined;
      if (!entry || entry.routing_number !== routingNumber) return null;
      const supported = (field: string) => entry[field] === 'supported';
      return {
        routingNumber,
        bankName: typeof entry.name === 'string' ? entry.name : '',
        ach: supported('ach_transfers'),
        wire: supported('wire_transfers'),
        rtp: supported('real_time_payments_transfers'),
        fednow: supported('fednow_transfers'),
      };
    },

    async createTransfer(request) {
      if (request.amountCents <= 0n)
        throw new BankError('The amount must be positive.', 422, 'invalid_parameters_error');
      const { path, body } = transferBody(options, request);
      return readIncreaseTransfer(await api('POST', path, body, request.idempotencyKey));
    },

    async getTransfer(id) {
      return readIncreaseTransfer(await api('GET', pathOfId(id)));
    },

    async returnInboundTransfer(id, reason): Promise<BankTransfer> {
      const type = transferTypeOfId(id);
      const key = `return-${id}`;
      if (type === 'inbound_ach_transfer')
        return readIncreaseTransfer(
          await api('POST', `${pathOfId(id)}/transfer_return`, { reason: ACH_CREDIT_REFUSED }, key),
        );
      if (type === 'inbound_wire_transfer')
        return readIncreaseTransfer(
          await api('POST', `${pathOfId(id)}/reverse`, { reason: WIRE_REFUSED }, key),
        );
      if (type === 'inbound_real_time_payments_transfer' || type === 'inbound_fednow_transfer') {
        // An instant payment cannot be returned: the money goes back as a new instant payment.
        const inbound = readIncreaseTransfer(await api('GET', pathOfId(id)));
        if (!inbound.counterparty) throw new BankError('The bank does not say who sent this payment.');
        await bank.createTransfer({
          kind: inbound.kind,
          amountCents: inbound.amountCents,
          idempotencyKey: key,
          counterparty: inbound.counterparty,
          description: `Returned: ${reason}`.slice(0, 140),
        });
        return { ...inbound, status: 'returned', returnCode: reason.slice(0, 32) };
      }
      throw new BankError('This is not the id of an inbound transfer.', 404, 'object_not_found_error');
    },

    async verifyWebhook(rawBody, headers, verifyOptions) {
      return verifyBankWebhookSignature(options.webhookSecret, rawBody, headers, verifyOptions);
    },

    async readWebhookEvent(rawBody) {
      const envelope = readIncreaseEventEnvelope(rawBody);
      const type = transferTypeOfId(envelope.objectId);
      if (!type || type !== envelope.objectType)
        return { kind: 'other', eventId: envelope.eventId, category: envelope.category };
      const object = await api('GET', pathOfId(envelope.objectId));
      if (type.startsWith('inbound_')) {
        const credit = readIncreaseInboundCredit(object);
        // Credited once the bank has accepted it (an inbound ACH waits `pending` first).
        if (credit && readIncreaseTransfer(object).status === 'settled')
          return { kind: 'inbound_credit', eventId: envelope.eventId, credit };
        return { kind: 'other', eventId: envelope.eventId, category: envelope.category };
      }
      return { kind: 'transfer_updated', eventId: envelope.eventId, transfer: readIncreaseTransfer(object) };
    },
  };
  return bank;
}

/** Increase's HTTP API: one call, its errors read into BankError. */
function increaseClient(options: IncreaseOptions) {
  const send = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/+$/, '');
  return async function api(
    method: 'GET' | 'POST',
    path: string,
    payload?: object,
    idempotencyKey?: string,
  ): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await send(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
        signal: AbortSignal.timeout(20_000),
      });
    } catch (error) {
      throw new BankError(
        `The bank did not answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || !body) {
      const type = typeof body?.type === 'string' ? body.type : null;
      const detail =
        typeof body?.detail === 'string' ? body.detail : typeof body?.title === 'string' ? body.title : '';
      throw new BankError(
        `The bank refused ${method} ${path.split('?')[0]} (HTTP ${response.status}${detail ? `: ${detail}` : ''})`,
        response.status,
        type,
      );
    }
    return body;
  };
}

/** The request body Increase takes for each kind of transfer. */
function transferBody(
  options: IncreaseOptions,
  request: BankTransferRequest,
): { path: string; body: object } {
  const { counterparty } = request;
  const amount = Number(request.amountCents);
  const destination = {
    account_number: counterparty.accountNumber,
    routing_number: counterparty.routingNumber,
  };
  switch (request.kind) {
    case 'ach_credit':
    case 'ach_debit':
      return {
        path: '/ach_transfers',
        body: {
          account_id: options.accountId,
          // A negative amount pulls the money (a debit).
          amount: request.kind === 'ach_debit' ? -amount : amount,
          ...destination,
          individual_name: counterparty.name.slice(0, 22),
          company_name: options.companyName.slice(0, 16),
          statement_descriptor: request.description.slice(0, 10) || 'OFFZERO',
          company_entry_description: request.description.slice(0, 10) || 'OFFZERO',
          standard_entry_class_code: SEC_CODES[request.secCode ?? 'PPD'],
        },
      };
    case 'wire':
      return {
        path: '/wire_transfers',
        body: {
          account_id: options.accountId,
          amount,
          ...destination,
          creditor: { name: counterparty.name.slice(0, 35) },
          remittance: {
            category: 'unstructured',
            unstructured: { message: request.description.slice(0, 140) },
          },
        },
      };
    case 'rtp':
      return {
        path: '/real_time_payments_transfers',
        body: {
          source_account_number_id: options.sourceAccountNumberId,
          amount,
          ...destination,
          creditor_name: counterparty.name.slice(0, 140),
          debtor_name: options.companyName,
          unstructured_remittance_information: request.description.slice(0, 140),
        },
      };
    case 'fednow':
      return {
        path: '/fednow_transfers',
        body: {
          source_account_number_id: options.sourceAccountNumberId,
          amount,
          ...destination,
          creditor_name: counterparty.name.slice(0, 140),
          debtor_name: options.companyName,
          unstructured_remittance_information: request.description.slice(0, 140),
        },
      };
  }
}
