import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { LegalPage, SupportEmail, type LegalClause } from './legal-page';

const clauses: LegalClause[] = [
  {
    title: 'Information We Collect',
    content: (
      <>
        <p>
          <strong>Information you give us.</strong> When you register and use OffZero you give us your e-mail
          address and phone number; for identity verification, your name, date of birth, residential address,
          a government-issued identity document and, where required, a photo of yourself; for payouts and
          payments, your bank account details (account holder, account number, routing number or SWIFT code,
          bank name and address) and your Zelle payment e-mail; the bitcoin wallet addresses you ask us to
          pay; your referral code if you were invited; and anything you write to our support team.
        </p>
        <p>
          <strong>Information about your orders.</strong> For every order we record its type, amounts, price,
          fees, payment method, payment and bank references, the bitcoin deposit address we issued and the
          bitcoin transaction identifiers involved.
        </p>
        <p>
          <strong>Information collected automatically.</strong> When you visit the website we receive your IP
          address, browser and device type, the pages you view and the time of your visit, and we store a
          small amount of data in your browser as described in our{' '}
          <Link to={paths.cookiePolicy}>Cookie Policy</Link>.
        </p>
        <p>
          <strong>Information from others.</strong> We receive the results of identity checks from our
          verification provider, payment confirmations from payment processors and banks, and, if you choose
          to sign in with Google, your name, e-mail address and whether Google has verified it.
        </p>
      </>
    ),
  },
  {
    title: 'How We Use Your Information',
    content: (
      <>
        <p>OffZero uses personal information only for clear purposes:</p>
        <ul>
          <li>
            to create and secure your account, including sending you one-time sign-in and verification codes;
          </li>
          <li>
            to quote, process and complete your orders: taking your payment, sending bitcoin to your wallet
            address and paying dollars to your bank or Zelle account;
          </li>
          <li>
            to meet our legal obligations, including identity verification, anti-money-laundering and
            sanctions screening, record keeping, tax reporting and answering lawful requests from authorities;
          </li>
          <li>to detect, investigate and prevent fraud, abuse and security incidents;</li>
          <li>
            to send you order updates and service messages by e-mail and SMS, and to answer your questions;
          </li>
          <li>to run the referral program and calculate the rewards you earn; and</li>
          <li>
            to understand, in aggregate, how the website is used so that we can fix problems and improve it.
          </li>
        </ul>
        <p>
          We do not sell your personal information, and we do not use it to show you advertising from other
          companies.
        </p>
      </>
    ),
  },
  {
    title: 'Sharing of Information',
    content: (
      <>
        <p>We share personal information only with the parties below, and only as much as each one needs:</p>
        <ul>
          <li>
            <strong>Payment processors and banks</strong>, such as PayPal and the banks that carry Zelle, ACH
            and wire transfers, to take your payments and send your payouts.
          </li>
          <li>
            <strong>KYC providers</strong>, the specialist company that verifies your identity documents and
            screens customers against sanctions and other watch lists on our behalf.
          </li>
          <li>
            <strong>Analytics providers</strong>, who receive pseudonymous information about how the website
            is used so that we can measure and improve it.
          </li>
          <li>
            <strong>Other service providers</strong> that host our systems, deliver our e-mail and text
            messages, or help us support customers, under contracts that require them to protect the
            information and use it only for us.
          </li>
          <li>
            <strong>Authorities</strong>, such as law enforcement, regulators and courts, when the law
            requires it or when it is necessary to protect the rights, property or safety of our customers,
            OffZero or others.
          </li>
          <li>
            <strong>A successor business</strong>, if OffZero is involved in a merger, acquisition or sale of
            assets, subject to this policy.
          </li>
        </ul>
        <p>
          Please remember that the bitcoin network is public: the amount, time and addresses of every bitcoin
          transaction are visible to anyone, permanently. OffZero does not publish who you are, but others may
          be able to link addresses to people by analysing the blockchain.
        </p>
      </>
    ),
  },
  {
    title: 'Data Security',
    content: (
      <>
        <p>
          We protect your information with safeguards appropriate to a financial service: all traffic to the
          website is encrypted in transit, access to customer data is limited to the staff who need it and is
          logged, sign-in uses one-time codes rather than reusable passwords, and identity documents are
          handled by our verification provider rather than kept on our own servers.
        </p>
        <p>
          Because OffZero never holds your bitcoin, we never need your wallet&apos;s private keys or recovery
          phrase. We will never ask you for them; anyone who does is not OffZero.
        </p>
        <p>
          No system is perfectly secure. If a security incident affects your personal information, we will
          notify you and the authorities as the law requires. If you think your account or information has
          been compromised, contact us straight away at <SupportEmail />.
        </p>
      </>
    ),
  },
  {
    title: 'Data Retention',
    content: (
      <>
        <p>
          We keep your personal information for as long as your account is open and for as long as we need it
          to provide the Services to you.
        </p>
        <p>
          After your account is closed, US law requires us to keep identity and transaction records, generally
          for at least five years. We may also keep information for longer where it is needed to resolve
          disputes, enforce our agreements or defend legal claims.
        </p>
        <p>
          When we no longer need information, we delete it or make it anonymous so that it can no longer be
          linked to you.
        </p>
      </>
    ),
  },
  {
    title: 'Your Choices',
    content: (
      <>
        <ul>
          <li>
            <strong>Your details.</strong> You can review and update your profile, bank account, Zelle e-mail
            and bitcoin wallet address at any time in your account settings.
          </li>
          <li>
            <strong>Notifications.</strong> You can turn e-mail and SMS notifications on or off in your
            settings. We will still send messages that are essential to your account, such as sign-in codes
            and security notices.
          </li>
          <li>
            <strong>Cookies and browser storage.</strong> You can control these in your browser, as explained
            in our <Link to={paths.cookiePolicy}>Cookie Policy</Link>.
          </li>
          <li>
            <strong>Access, correction and deletion.</strong> You can ask for a copy of the personal
            information we hold about you, or ask us to correct or delete it, by writing to <SupportEmail />.
            We will answer within the time the law allows; information we must keep by law will be deleted
            when that duty ends.
          </li>
        </ul>
        <p>
          The Services are for adults only. We do not knowingly collect information from anyone under 18, and
          we delete it if we learn that we have.
        </p>
      </>
    ),
  },
  {
    title: 'Updates to This Policy',
    content: (
      <>
        <p>
          We may update this Privacy Policy as our Services or the law change. The date at the top of this
          page shows when it was last updated.
        </p>
        <p>
          If we make a material change to how we use or share your personal information, we will tell you by
          e-mail or by a notice on the website before the change takes effect. Questions about this policy or
          about your information can be sent to <SupportEmail />.
        </p>
      </>
    ),
  },
];

export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <p>
          Your privacy matters to us. This Privacy Policy explains what personal information OffZero collects
          when you use our website and services, why we collect it, who we share it with, and the choices you
          have.
        </p>
      }
      clauses={clauses}
    />
  );
}
