import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { LegalPage, SupportEmail, type LegalClause } from './legal-page';

const clauses: LegalClause[] = [
  {
    title: 'No Refunds',
    content: (
      <>
        <p>
          Bitcoin transactions are irreversible. Once OffZero has sent bitcoin to the wallet address you gave
          us, no one (not OffZero, not your bank and not the bitcoin network) can cancel, recall or reverse
          that transaction. For this reason,{' '}
          <strong>all completed purchases are final and are not refundable</strong>.
        </p>
        <p>
          The same applies to sales: once you have sent bitcoin to the deposit address for your order and
          OffZero has paid you the dollar amount of your quote, the sale is final.
        </p>
        <p>
          Please check the wallet address, the amount and the quote carefully before you confirm an order. If
          an order expires before you pay, nothing is charged. If OffZero cannot complete an order after
          receiving your payment, for example because it fails a required compliance review, we will contact
          you and return the funds to the account they came from, as far as the law allows.
        </p>
      </>
    ),
  },
  {
    title: 'Selling Your Bitcoin',
    content: (
      <>
        <p>
          If you no longer want bitcoin you have bought, you can sell it back through OffZero at the market
          rate at any time, instead of asking for a refund. Place a sell order from your dashboard, send the
          bitcoin to the deposit address we give you, and receive US dollars by Zelle, ACH or wire transfer.
        </p>
        <p>
          A sale is a new order: it is priced at the market rate when you request your sell quote, which may
          be higher or lower than the rate at which you bought, and the platform fee and any bank charges
          shown on the quote apply. Minimum and maximum order sizes and identity verification apply as for any
          other order.
        </p>
      </>
    ),
  },
  {
    title: 'Limitation of Responsibility',
    content: (
      <>
        <p>OffZero is not responsible for losses that result from:</p>
        <ul>
          <li>changes in the price of bitcoin before, during or after your order;</li>
          <li>bitcoin sent to a wrong or mistyped wallet address that you provided;</li>
          <li>losing access to your wallet, its private keys or its recovery phrase;</li>
          <li>delays caused by banks, payment processors or congestion on the bitcoin network; or</li>
          <li>
            unauthorized use of your account that results from someone gaining access to your e-mail or phone.
          </li>
        </ul>
        <p>
          If you send bitcoin to a deposit address after your order has expired, or send a different amount
          from the one quoted, we will make every reasonable effort to credit it, priced at the amount
          actually received and the market rate at that time. For the full limits on OffZero&apos;s liability,
          see our <Link to={paths.termsOfUse}>Terms of Use</Link>.
        </p>
      </>
    ),
  },
  {
    title: 'Contact Us',
    content: (
      <>
        <p>
          If you believe something went wrong with an order, write to us at <SupportEmail /> as soon as
          possible. Please include your order number and, where you have them, the payment reference or the
          bitcoin transaction ID.
        </p>
        <p>
          Our support team will look into every request and reply by e-mail. Where we find that an error was
          ours, we will put it right.
        </p>
      </>
    ),
  },
  {
    title: 'Updates to This Policy',
    content: (
      <>
        <p>
          We may update this Refund Policy from time to time. The date at the top of this page shows when it
          was last updated, and the version in force when you place an order applies to that order.
        </p>
        <p>Material changes will be announced on the website or by e-mail before they take effect.</p>
      </>
    ),
  },
];

export default function RefundPolicyPage() {
  return (
    <LegalPage
      title="Refund Policy"
      intro={
        <p>
          This Refund Policy explains what happens to your money and your bitcoin after you place an order
          with OffZero, and what you can do if you change your mind.
        </p>
      }
      clauses={clauses}
    />
  );
}
