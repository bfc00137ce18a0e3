import type { OrderActionKind } from './order-actions';

/** Each action's words: its button, its dialog's title and confirm button, and what the toast says after. */
interface ActionCopy {
  button: string;
  title: string;
  confirm: string;
  done: string;
  tone: 'primary' | 'secondary' | 'danger';
  buttonVariant: 'primary' | 'secondary' | 'outline' | 'danger';
}

export const COPY: Record<OrderActionKind, ActionCopy> = {
  'mark-paid': {
    button: 'Mark payment received',
    title: 'Mark payment received',
    confirm: 'Mark received',
    done: 'Payment marked as received.',
    tone: 'primary',
    buttonVariant: 'primary',
  },
  'payout-btc': {
    button: 'Record payout txid',
    title: 'Record the bitcoin payout',
    confirm: 'Record payout',
    done: 'Bitcoin payout recorded; the order is completed.',
    tone: 'primary',
    buttonVariant: 'primary',
  },
  'send-btc': {
    button: 'Send via demo chain',
    title: 'Send the bitcoin through the demo chain',
    confirm: 'Send bitcoin',
    done: 'Bitcoin sent on the demo chain; the order is completed.',
    tone: 'secondary',
    buttonVariant: 'secondary',
  },
  'payout-usd': {
    button: 'Record USD payout',
    title: 'Record the dollar payout',
    confirm: 'Record payout',
    done: 'Dollar payout recorded; the order is completed.',
    tone: 'primary',
    buttonVariant: 'primary',
  },
  cancel: {
    button: 'Cancel order',
    title: 'Cancel this order',
    confirm: 'Cancel order',
    done: 'Order cancelled.',
    tone: 'danger',
    buttonVariant: 'outline',
  },
  'refund-btc': {
    button: 'Refund BTC',
    title: 'Record the bitcoin returned',
    confirm: 'Record return',
    done: 'The return is recorded.',
    tone: 'danger',
    buttonVariant: 'outline',
  },
  'refund-usd': {
    button: 'Record USD refund',
    title: 'Record the dollar refund',
    confirm: 'Record refund',
    done: 'Refund recorded; the customer sees it in their order’s timeline.',
    tone: 'primary',
    buttonVariant: 'primary',
  },
  'resolve-flag': {
    button: 'Resolve flag',
    title: 'Resolve the flag',
    confirm: 'Resolve flag',
    done: 'Flag resolved.',
    tone: 'primary',
    buttonVariant: 'outline',
  },
};
