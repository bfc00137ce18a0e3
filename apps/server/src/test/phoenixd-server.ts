import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hex } from '@scure/base';
import { decodeBolt11, encodeBolt11 } from '@offzero/shared/bitcoin/bolt11';
import { phoenixdSignature } from '../rails/lightning/phoenixd-node';

/**
 * A local node behind an HTTP server speaking phoenixd's API (https://phoenix.acinq.co/server/api) in
 * its answer formats: basic auth with an empty user, form-encoded bodies, `POST /createinvoice`,
 * `POST /payinvoice`, `GET /payments/incoming/{hash}`, `GET /payments/outgoing/{id}`,
 * `GET /payments/outgoinghash/{hash}`. Invoices are real BOLT11, signed with the server's node key.
 * `receive` plays a payer paying one of its invoices and posts the signed `payment_received` webhook.
 */
export interface PhoenixdTestServer {
  url: string;
  password: string;
  webhookSecret: string;
  requests: {
    method: string;
    path: string;
    form: Record<string, string>;
    authorization: string | undefined;
  }[];
  /** Invoices `payinvoice` will settle (by payment hash), else it answers a failure. */
  payable: Set<string>;
  /** Makes `payinvoice` hang until the client gives up. */
  hangPayments: boolean;
  receive(paymentHash: string, webhookUrl: string): Promise<Response>;
  close(): Promise<void>;
}

const NODE_KEY = hex.decode('7b'.repeat(32));

interface Incoming {
  paymentHash: string;
  preimage: string;
  invoice: string;
  amountSat: number;
  externalId: string;
  description: string;
  createdAt: number;
  completedAt: number | null;
}

export async function startPhoenixdServer(): Promise<PhoenixdTestServer> {
  const password = randomBytes(16).toString('hex');
  const webhookSecret = randomBytes(16).toString('hex');
  const incoming = new Map<string, Incoming>();
  const outgoing = new Map<
    string,
    {
      paymentId: string;
      paymentHash: string;
      preimage: string;
      sent: number;
      fees: number;
      isPaid: boolean;
      completedAt: number;
    }
  >();
  const requests: PhoenixdTestServer['requests'] = [];
  const state = { hangPayments: false, payable: new Set<string>() };

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(body));
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ method: req.method ?? 'GET', path, form, authorization: req.headers.authorization });
    const expected = `Basic ${Buffer.from(`:${password}`).toString('base64')}`;
    if (req.headers.authorization !== expected)
      return send(
        res,
        401,
        'Invalid authentication (use basic auth with the http password set in phoenix.conf)',
      );
    if (req.method === 'POST' && path === '/createinvoice') return createInvoice(res, form);
    if (req.method === 'POST' && path === '/payinvoice') return payInvoice(res, form);
    const incomingMatch = /^\/payments\/incoming\/([0-9a-f]{64})$/.exec(path);
    if (req.method === 'GET' && incomingMatch) {
      const found = incoming.get(incomingMatch[1]!);
      if (!found) return send(res, 404, 'payment not found');
      return sendJson(res, {
        paymentHash: found.paymentHash,
        preimage: found.preimage,
        externalId: found.externalId,
        description: found.description,
        invoice: found.invoice,
        isPaid: found.completedAt !== null,
        receivedSat: found.completedAt !== null ? found.amountSat : 0,
        fees: 0,
        completedAt: found.completedAt,
        createdAt: found.createdAt,
      });
    }
    const outgoingMatch = /^\/payments\/(outgoing|outgoinghash)\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && outgoingMatch) {
      const key = outgoingMatch[2]!;
      const found = [...outgoing.values()].find((payment) =>
        outgoingMatch[1] === 'outgoing' ? payment.paymentId === key : payment.paymentHash === key,
      );
      if (!found) return send(res, 404, 'payment not found');
      return sendJson(res, { ...found, invoice: '', createdAt: found.completedAt });
    }
    send(res, 404, 'not found');
  }

  function createInvoice(res: ServerResponse, form: Record<string, string>): void {
    const amountSat = Number(form.amountSat);
    if (!form.description || !Number.isInteger(amountSat)) return send(res, 400, 'Invalid parameter');
    const preimage = randomBytes(32).toString('hex');
    const paymentHash = createHash('sha256').update(Buffer.from(preimage, 'hex')).digest('hex');
    const createdAt = Date.now();
    const invoice = encodeBolt11(
      {
        network: 'regtest',
        amountMsat: BigInt(amountSat) * 1000n,
        timestamp: Math.floor(createdAt / 1000),
        expirySeconds: Number(form.expirySeconds ?? 3600),
        paymentHash,
        paymentSecret: randomBytes(32).toString('hex'),
        description: form.description,
      },
      NODE_KEY,
    );
    incoming.set(paymentHash, {
      paymentHash,
      preimage,
      invoice,
      amountSat,
      externalId: form.externalId ?? '',
      description: form.description,
      createdAt,
      completedAt: null,
    });
    sendJson(res, { amountSat, paymentHash, serialized: invoice });
  }

  async function payInvoice(res: ServerResponse, form: Record<string, string>): Promise<void> {
    if (state.hangPayments) return; // never answers
    let decoded;
    try {
      decoded = decodeBolt11(form.invoice ?? '');
    } catch {
      return send(res, 400, 'Invalid parameter');
    }
    const paymentId = crypto.randomUUID();
    if (!state.payable.has(decoded.paymentHash)) {
      return sendJson(res, { paymentId, reason: 'route not found' });
    }
    const preimage = createHash('sha256').update(decoded.paymentHash).digest('hex');
    const sent = decoded.amountMsat !== null ? Number(decoded.amountMsat / 1000n) : Number(form.amountSat);
    outgoing.set(paymentId, {
      paymentId,
      paymentHash: decoded.paymentHash,
      preimage,
      sent: sent + 3,
      fees: 3,
      isPaid: true,
      completedAt: Date.now(),
    });
    sendJson(res, {
      recipientAmountSat: sent,
      routingFeeSat: 3,
      paymentId,
      paymentHash: decoded.paymentHash,
      paymentPreimage: preimage,
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    password,
    webhookSecret,
    requests,
    payable: state.payable,
    get hangPayments() {
      return state.hangPayments;
    },
    set hangPayments(value: boolean) {
      state.hangPayments = value;
    },
    async receive(paymentHash, webhookUrl) {
      const found = incoming.get(paymentHash);
      if (!found) throw new Error('no such invoice');
      found.completedAt = Date.now();
      const body = JSON.stringify({
        type: 'payment_received',
        timestamp: found.completedAt,
        amountSat: found.amountSat,
        paymentHash,
        externalId: found.externalId,
        payerNote: null,
        payerKey: null,
      });
      return fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-phoenix-signature': phoenixdSignature(body, webhookSecret),
        },
        body,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
}

function sendJson(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
