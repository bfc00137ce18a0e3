import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { LegalPage, SupportEmail, type LegalClause } from './legal-page';

const clauses: LegalClause[] = [
  {
    title: 'Acceptance of Terms',
    content: (
      <>
        <p>
          By creating an OffZero account, or by otherwise accessing or using the OffZero website and services
          (together, the &ldquo;Services&rdquo;), you agree to be bound by these Terms of Use and by our{' '}
          <Link to={paths.privacyPolicy}>Privacy Policy</Link>,{' '}
          <Link to={paths.cookiePolicy}>Cookie Policy</Link> and{' '}
          <Link to={paths.refundPolicy}>Refund Policy</Link>, which form part of these Terms. If you do not
          agree with any part of them, you must not use the Services.
        </p>
        <p>
          You may use the Services only if you are at least 18 years old, live in the United States in a state
          where OffZero offers its Services, and are legally able to enter into a binding contract. By using
          the Services you confirm that each of these statements is true, and that you are not barred from
          receiving financial services under the laws of the United States or any other applicable
          jurisdiction.
        </p>
        <p>
          If you use the Services on behalf of a company or other organization, you accept these Terms on its
          behalf and confirm that you have the authority to do so. In that case &ldquo;you&rdquo; refers to
          that organization as well as to you personally.
        </p>
      </>
    ),
  },
  {
    title: 'Use License',
    content: (
      <>
        <p>
          Provided that you comply with these Terms, OffZero grants you a limited, personal, non-exclusive,
          non-transferable and revocable license to access and use the Services to buy and sell bitcoin for
          your own account. This is the grant of a license, not a transfer of title, and under this license
          you may not:
        </p>
        <ul>
          <li>
            copy, modify or create derivative works of any part of the website, its software or its content;
          </li>
          <li>
            use the Services or their content for any commercial purpose or public display other than your own
            trading;
          </li>
          <li>
            decompile, reverse engineer or attempt to extract the source code of any software contained in the
            Services;
          </li>
          <li>remove any copyright, trademark or other proprietary notice from any material; or</li>
          <li>transfer the material to another person or &ldquo;mirror&rdquo; it on any other server.</li>
        </ul>
        <p>
          The OffZero name, logo, website design, text, graphics and software are owned by OffZero or its
          licensors and are protected by United States and international intellectual property laws. Nothing
          in these Terms gives you any right to use them other than as described in this section.
        </p>
        <p>
          This license ends automatically if you breach any of these restrictions, and OffZero may end it at
          any time. When it ends you must stop using the Services and destroy any material from them that you
          have downloaded or printed.
        </p>
      </>
    ),
  },
  {
    title: 'Accounts',
    content: (
      <>
        <p>
          You need an account to place orders. When you register you must give accurate, current and complete
          information, including a valid e-mail address and phone number that you confirm with the one-time
          codes we send to them, and you must keep that information up to date in your account settings. You
          may hold only one account.
        </p>
        <p>
          <strong>Identity verification.</strong> As a US financial service, OffZero must verify the identity
          of its customers and monitor transactions under the Bank Secrecy Act and related
          anti-money-laundering and sanctions laws. You authorize OffZero and its identity-verification
          providers to verify the information and documents you provide. We may decline to open an account,
          limit what you can do with it, or hold an order while we complete these checks, and we may ask for
          further information at any time.
        </p>
        <p>
          <strong>Security.</strong> Sign-in codes are sent to your e-mail address and phone, so you are
          responsible for keeping those accounts and devices secure and for everything done through your
          OffZero account. If you believe someone else has accessed your account, tell us immediately at{' '}
          <SupportEmail />.
        </p>
        <p>
          <strong>Self-custody.</strong> OffZero never holds bitcoin on your behalf. Bitcoin you buy is sent
          to the wallet address you give us, and you alone control that wallet and its private keys. Check
          every address carefully: bitcoin sent to an address you provided cannot be recovered by OffZero.
        </p>
        <p>
          We may suspend or close your account if you breach these Terms, if we are required to by law or by a
          regulator, or if we reasonably suspect fraud or other unlawful activity. You may close your account
          at any time by contacting support; orders already in progress will be completed or unwound as the
          law and these Terms allow.
        </p>
      </>
    ),
  },
  {
    title: 'Prohibited Activities',
    content: (
      <>
        <p>You agree not to use the Services, directly or indirectly, to:</p>
        <ul>
          <li>
            engage in or finance any unlawful activity, including money laundering, terrorist financing,
            fraud, gambling where it is illegal, or the evasion of sanctions or taxes;
          </li>
          <li>
            register or trade using another person&apos;s identity, payment card, bank account or PayPal
            account, or give false or misleading information;
          </li>
          <li>
            buy or sell bitcoin on behalf of someone else without our written agreement, or for any person or
            place subject to US sanctions;
          </li>
          <li>split orders or accounts to avoid order limits, identity checks or reporting requirements;</li>
          <li>
            dispute a payment, request a chargeback or reverse a bank transfer for an order that OffZero has
            already fulfilled;
          </li>
          <li>
            interfere with or disrupt the Services, probe or test their security without permission, introduce
            malicious code, or use bots, scrapers or other automated means to access them; or
          </li>
          <li>harass, threaten or abuse OffZero staff or other users.</li>
        </ul>
        <p>
          We monitor activity on the Services as the law requires. If we suspect a prohibited activity we may
          cancel or hold orders, suspend or close the accounts involved, report the activity to
          law-enforcement and regulatory authorities, and cooperate with their investigations. We may also
          take legal action to recover any loss that a prohibited activity causes us.
        </p>
      </>
    ),
  },
  {
    title: 'Limitation of Liability',
    content: (
      <>
        <p>
          The Services are provided &ldquo;as is&rdquo; and &ldquo;as available&rdquo;. To the fullest extent
          the law allows, OffZero disclaims all warranties, express or implied, including warranties of
          merchantability, fitness for a particular purpose and non-infringement, and does not promise that
          the Services will be uninterrupted, timely or free of errors.
        </p>
        <p>
          Bitcoin carries real risks. Its price can rise or fall sharply in minutes; transactions on the
          bitcoin network cannot be reversed; network fees and confirmation times vary; and losing the keys to
          your wallet means losing the bitcoin in it. Laws and regulations affecting bitcoin may change.
          OffZero does not give investment, tax or legal advice, and you alone decide whether buying or
          selling bitcoin is right for you.
        </p>
        <p>
          To the fullest extent the law allows, OffZero and its directors, officers, employees and agents will
          not be liable for any indirect, incidental, special, consequential or punitive damages, or for any
          loss of profits, revenue, data or goodwill, arising out of or relating to your use of, or inability
          to use, the Services, even if we have been told such damages are possible. Our total liability for
          any claim relating to the Services is limited to the greater of the fees you paid OffZero in the
          twelve months before the claim arose and one hundred US dollars (US$100).
        </p>
        <p>
          Some states do not allow certain warranties or damages to be excluded or limited; in those states
          the exclusions and limits above apply only as far as the law allows. You agree to indemnify and hold
          OffZero harmless from any claim, loss or expense, including reasonable legal fees, arising from your
          breach of these Terms or your misuse of the Services.
        </p>
      </>
    ),
  },
  {
    title: 'Governing Law',
    content: (
      <>
        <p>
          These Terms, and any dispute arising out of or relating to them or to the Services, are governed by
          the laws of the State of Wyoming and the applicable federal laws of the United States, without
          regard to conflict-of-law rules that would apply the law of another place.
        </p>
        <p>
          Before starting any formal proceeding, please contact us at <SupportEmail /> and give us thirty (30)
          days to try to resolve the matter informally; most concerns can be settled this way. If a dispute
          cannot be resolved informally, it will be heard exclusively by the state or federal courts located
          in the State of Wyoming, and you and OffZero both consent to the personal jurisdiction of those
          courts.
        </p>
        <p>
          To the extent the law allows, any claim must be brought in your individual capacity and not as a
          plaintiff or class member in a purported class, collective or representative proceeding.
        </p>
      </>
    ),
  },
  {
    title: 'Changes to These Terms',
    content: (
      <>
        <p>
          OffZero may revise these Terms from time to time, for example when we add features, when the law
          changes or when a regulator asks us to. The date at the top of this page shows when they were last
          updated.
        </p>
        <p>
          When we make a material change we will tell you before it takes effect, by e-mail to the address on
          your account or by a notice on the website. If you keep using the Services after the change takes
          effect, you accept the revised Terms; if you do not agree with them, you should stop using the
          Services and close your account.
        </p>
        <p>
          If any provision of these Terms is found to be unenforceable, the rest remain in full force. Our
          failure to enforce a provision is not a waiver of our right to do so later. These Terms, together
          with the policies they refer to, are the entire agreement between you and OffZero about the
          Services.
        </p>
      </>
    ),
  },
];

export default function TermsOfUsePage() {
  return (
    <LegalPage
      title="Terms of Use"
      intro={
        <p>
          These Terms of Use govern your access to and use of the website and services operated by OffZero
          (&ldquo;OffZero&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo; or &ldquo;our&rdquo;), through which
          customers in the United States buy bitcoin with US dollars and sell bitcoin for US dollars. Please
          read them carefully before you use the Services.
        </p>
      }
      clauses={clauses}
    />
  );
}
