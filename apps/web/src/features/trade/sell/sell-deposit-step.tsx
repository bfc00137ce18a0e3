import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Order } from '@offzero/shared/api/orders';
import { satsToBtcNumber, type Sats } from '@offzero/shared/money/money';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import { useAppConfig } from '../../../lib/app-config';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { ExternalLinkIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { formatCountdown, useSecondsUntil } from '../utils/countdown';
import { formatExactBtc, orderNumber, satsOf } from '../../../lib/format';
import { payFromDemoWallet, payInvoiceFromDemoWallet } from '../api/demo-wallet';
import { stepHeadingProps } from '../components/step-heading';

export const TIMER_EXPIRED_ALERT = 'The timer has expired!';

// The QR code library loads when a deposit is shown, not with the trade widget on the home page.
const QRCodeSVG = lazy(async () => ({ default: (await import('qrcode.react')).QRCodeSVG }));
const QR_SIZE = 196;
// With an invoice the payment link is several times longer: a larger code keeps its modules scannable.
const QR_SIZE_WITH_INVOICE = 240;

/** The sell order's deposit address and the exact amount to send there. */
export function depositOf(order: Order): { address: string; amountSats: Sats; amountText: string } | null {
  const deposit = order.walletAddress;
  if (!deposit || typeof deposit === 'string') return null;
  const sats = satsOf(deposit.amount);
  return sats === null
    ? null
    : { address: deposit.address, amountSats: sats, amountText: formatExactBtc(sats) };
}

/**
 * BIP21 payment link: wallets that scan it fill in the address, the amount and a label; a sell paid by
 * Lightning adds its invoice (`lightning=`), so one code pays either way.
 */
export function depositUri(address: string, amountText: string, orderId: string, invoice?: string): string {
  const base = `bitcoin:${address}?amount=${amountText}&message=OffZero%20order%20${orderNumber(orderId)}`;
  return invoice ? `${base}&lightning=${invoice}` : base;
}

/**
 * The deposit step, QRCODE: the exact amount, a QR code of the payment link, the
 * 20-minute window as '(Time out in mm:ss)', the address shortened with a copy button and an explorer
 * link. When the window closes an alert says so; the order then expires on the server (a deposit that
 * still arrives is credited and flagged for review, never lost).
 */
export function SellDepositStep({
  order,
  closed,
  onRestart,
}: {
  order: Order;
  /** The order's status when the server closed it (expired, cancelled) while shown. */
  closed: string | null;
  onRestart: () => void;
}) {
  const { explorerUrl, mode } = useAppConfig();
  const deposit = depositOf(order);
  const seconds = useSecondsUntil(Date.parse(order.expiresAt));
  const alerted = useRef(seconds === 0);

  useEffect(() => {
    if (seconds > 0 || alerted.current) return;
    alerted.current = true;
    window.alert(TIMER_EXPIRED_ALERT);
  }, [seconds]);

  if (!deposit) {
    return (
      <p className="text-sm text-slate-600">
        This order has no deposit address. Open My Orders for its state.
      </p>
    );
  }
  const over = seconds === 0 || closed !== null;
  const qrSize = order.lightning ? QR_SIZE_WITH_INVOICE : QR_SIZE;

  return (
    <div className="space-y-4 text-center">
      <div>
        <div className="flex items-center justify-center gap-2">
          <h3 {...stepHeadingProps} className="text-lg font-semibold text-ink-900 outline-none">
            Please send {deposit.amountText} BTC
          </h3>
          <CopyButton text={deposit.amountText} label="Copy amount" size="sm" />
        </div>
        <p
          className={`mt-0.5 text-sm font-medium tabular-nums ${seconds <= 120 ? 'text-amber-700' : 'text-slate-500'}`}
          data-testid="deposit-countdown"
        >
          (Time out in {formatCountdown(seconds)})
        </p>
      </div>

      <div
        className={`mx-auto w-fit rounded-2xl bg-white p-3 ring-1 ring-slate-200 ${over ? 'opacity-30' : ''}`}
      >
        <Suspense fallback={<div style={{ width: qrSize, height: qrSize }} />}>
          <QRCodeSVG
            value={depositUri(deposit.address, deposit.amountText, order._id, order.lightning?.invoice)}
            size={qrSize}
            level="M"
            marginSize={1}
            title={`Payment QR code: ${deposit.amountText} BTC to ${deposit.address}`}
            role="img"
            aria-label="Deposit QR code"
          />
        </Suspense>
      </div>

      <DepositAddressLine address={deposit.address} explorerUrl={explorerUrl} />

      {order.lightning && <LightningInvoiceLine invoice={order.lightning.invoice} />}

      {over ? (
        <div
          role="alert"
          className="rounded-2xl bg-amber-50 p-3 text-left text-sm text-amber-900 ring-1 ring-amber-200"
        >
          <p>
            {closed === 'cancelled'
              ? 'This order was cancelled. Do not send bitcoin to this address.'
              : 'The deposit window has closed. Do not send bitcoin to this address; start a new sale instead. If you already sent it, it will still be credited after review.'}
          </p>
          <Button variant="secondary" fullWidth className="mt-3" onClick={onRestart}>
            Start a new sale
          </Button>
        </div>
      ) : (
        <>
          <p className="inline-flex items-center gap-2 text-sm text-slate-600" role="status">
            <Spinner className="size-4 text-brand-600" />
            Waiting for your transaction…
          </p>
          <p className="text-left text-xs leading-5 text-slate-500">
            {order.lightning
              ? 'Pay the Lightning invoice from your wallet (scanning the code does it), or send exactly this amount on chain to the address. Whichever arrives first counts: pay only once.'
              : 'Send exactly this amount, in one transaction, from a wallet you control. This address is for this order only.'}
          </p>
          {mode === 'demo' && (
            <DemoWalletPayment
              address={deposit.address}
              amountSats={deposit.amountSats}
              invoice={order.lightning?.invoice}
            />
          )}
        </>
      )}
    </div>
  );
}

/** The order's deposit address, shortened, with a copy button and a block explorer link. */
function DepositAddressLine({ address, explorerUrl }: { address: string; explorerUrl: string }) {
  return (
    <div className="flex items-center justify-center gap-2">
      <span
        className="font-mono text-sm font-medium text-ink-900"
        title={address}
        data-testid="deposit-address"
      >
        {shortenText(address, SHORTEN.address)}
      </span>
      <CopyButton text={address} label="Copy deposit address" size="sm" />
      <a
        href={`${explorerUrl}/address/${address}`}
        target="_blank"
        rel="noopener noreferrer"
        aria-label="View the deposit address on the block explorer"
        title="View on the block explorer"
        className="inline-flex size-8 items-center justify-center rounded-full text-slate-500 ring-1 ring-slate-200 hover:bg-brand-50 hover:text-brand-700"
      >
        <ExternalLinkIcon className="size-4" />
      </a>
    </div>
  );
}

/** A sell paid by Lightning: its invoice, shortened, with a copy button. */
function LightningInvoiceLine({ invoice }: { invoice: string }) {
  return (
    <div className="flex items-center justify-center gap-2">
      <span className="text-xs font-medium text-slate-500">Lightning invoice</span>
      <span
        className="font-mono text-sm font-medium text-ink-900"
        title={invoice}
        data-testid="deposit-lightning-invoice"
      >
        {shortenText(invoice, SHORTEN.address)}
      </span>
      <CopyButton text={invoice} label="Copy Lightning invoice" size="sm" />
    </div>
  );
}

/**
 * Demo mode has no real wallet to send from: the demo wallet pays the exact deposit on the simulated
 * chain, and the order then moves on as it would for a real deposit (the watcher credits it, the page
 * hears of it). Paid once: the button stays disabled afterwards.
 */
function DemoWalletPayment({
  address,
  amountSats,
  invoice,
}: {
  address: string;
  amountSats: Sats;
  /** The order's Lightning invoice: the demo wallet pays it instead, settled at once. */
  invoice?: string | undefined;
}) {
  const pay = useMutation({
    mutationFn: async (): Promise<unknown> =>
      invoice ? payInvoiceFromDemoWallet(invoice) : payFromDemoWallet(address, satsToBtcNumber(amountSats)),
    onError: (error) => toast.error(errorMessage(error)),
  });
  const sent = pay.isSuccess;
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-dashed border-sky-300 bg-sky-50/70 p-4 text-left"
    >
      <h4 id={headingId} className="text-sm font-semibold text-sky-900">
        Demo wallet
      </h4>
      <p className="mt-1 text-sm text-sky-900/80">
        {sent
          ? 'Sent from the demo wallet. The deposit shows here in a few seconds.'
          : 'In demo mode no real bitcoin moves: the demo wallet can send this exact amount for you.'}
      </p>
      <Button
        fullWidth
        className="mt-3"
        onClick={() => {
          if (!pay.isPending && !sent) pay.mutate();
        }}
        loading={pay.isPending}
        disabled={sent}
      >
        {invoice ? 'Pay by Lightning' : 'Pay from the demo wallet'}
      </Button>
    </section>
  );
}
