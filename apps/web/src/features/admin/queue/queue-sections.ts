import { useEffect, useState } from 'react';
import type { AdminOrder } from '@offzero/shared/api/admin';
import {
  AlertIcon,
  BitcoinIcon,
  CardIcon,
  IdCardIcon,
  ShieldIcon,
  WalletIcon,
} from '../../../components/ui/icons';
import { useWorkQueue } from '../api/get-work-queue';
import { useMonitoringCases } from '../api/list-cases';
import { useKycCases } from '../api/list-kyc-cases';
import type { SectionInfo } from './queue-section';

/** Re-renders every minute so the ages stay true while the page is open. */
function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Since when each kind of queued order has waited. */
export const paymentsSince = (o: AdminOrder) => o.payment?.create_time ?? o.createdAt;
export const paidSince = (o: AdminOrder) => o.paymentConfirmedAt ?? o.createdAt;
export const createdSince = (o: AdminOrder) => o.createdAt;

/** The queue's reads (polled), and each section's count and oldest item. */
export function useQueueSections() {
  const queue = useWorkQueue();
  const kyc = useKycCases('YELLOW');
  // Monitoring cases not closed: the open ones and those under review.
  const openCases = useMonitoringCases({ status: 'open' }, { poll: true });
  const reviewingCases = useMonitoringCases({ status: 'reviewing' }, { poll: true });
  const now = useNow();

  const q = queue.data;
  const cases = kyc.data?.cases;
  const monitoring =
    openCases.data && reviewingCases.data
      ? [...openCases.data.cases, ...reviewingCases.data.cases].sort((a, b) =>
          a.openedAt.localeCompare(b.openedAt),
        )
      : undefined;
  const oldest = <T>(rows: T[] | undefined, since: (row: T) => string | null) =>
    rows?.length ? rows.map(since).filter(Boolean).sort()[0] : rows ? null : undefined;

  const sections: SectionInfo[] = [
    {
      id: 'payments',
      title: 'Payments to check',
      hint: 'Buy orders whose customer says they paid. Check the bank, then mark the payment received.',
      icon: CardIcon,
      count: q?.paymentsToCheck.length,
      oldest: oldest(q?.paymentsToCheck, paymentsSince),
    },
    {
      id: 'bitcoin',
      title: 'Bitcoin to send',
      hint: 'Payment received. Pay them in a batch on the Payouts page, or send one by hand from its order page. A buy already in a batch is paid by that batch.',
      icon: BitcoinIcon,
      count: q?.bitcoinToSend.length,
      oldest: oldest(q?.bitcoinToSend, paidSince),
    },
    {
      id: 'payouts',
      title: 'Sell payouts due',
      hint: 'Deposits confirmed on chain. Pay the customer in dollars and record the reference.',
      icon: WalletIcon,
      count: q?.sellPayoutsDue.length,
      oldest: oldest(q?.sellPayoutsDue, createdSince),
    },
    {
      id: 'flagged',
      title: 'Flagged orders',
      hint: 'Late, under- or over-paid, vanished transactions and capture mismatches.',
      icon: AlertIcon,
      count: q?.flagged.length,
      oldest: oldest(q?.flagged, createdSince),
    },
    {
      id: 'kyc',
      title: 'KYC under review',
      hint: 'Identity documents waiting for a decision.',
      icon: IdCardIcon,
      count: cases?.length,
      oldest: oldest(cases, (c) => c.submittedAt),
    },
    {
      id: 'cases',
      title: 'Monitoring cases',
      hint: 'Patterns the monitoring rules found. Review them, add notes, close with an outcome.',
      icon: ShieldIcon,
      count: monitoring?.length,
      oldest: oldest(monitoring, (c) => c.openedAt),
    },
  ];

  const total = sections.reduce((sum, s) => sum + (s.count ?? 0), 0);
  return { queue, kyc, q, cases, monitoring, sections, total, now };
}
