import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { LegalPage, SupportEmail, type LegalClause } from './legal-page';

const clauses: LegalClause[] = [
  {
    title: 'Session and Persistent Cookies',
    content: (
      <>
        <p>
          Cookies are small text files that a website stores in your browser; similar technologies, such as
          your browser&apos;s local storage, work in much the same way. <strong>Session</strong> cookies
          disappear when you close your browser. <strong>Persistent</strong> cookies and stored values remain
          until they expire or you delete them.
        </p>
        <p>OffZero stores only what the website needs to work:</p>
        <ul>
          <li>a sign-in token that keeps you signed in until it expires or you log out;</li>
          <li>a security token that protects your account against cross-site request forgery; and</li>
          <li>the currency you prefer prices to be shown in.</li>
        </ul>
        <p>
          These items are strictly necessary: without them the signed-in parts of the website cannot work. We
          do not use our own cookies for advertising, and we do not let advertising networks place cookies
          through our website.
        </p>
      </>
    ),
  },
  {
    title: 'Third-Party Cookies',
    content: (
      <>
        <p>
          Some features are provided by partners who may set their own cookies when you use those features:
        </p>
        <ul>
          <li>PayPal, when you choose to pay with PayPal or a card at checkout;</li>
          <li>Google, when you choose to sign in with your Google account;</li>
          <li>our identity-verification provider, while you complete identity verification; and</li>
          <li>analytics providers, who help us understand in aggregate how the website is used.</li>
        </ul>
        <p>
          These cookies are governed by each partner&apos;s own privacy and cookie policies, not by this one.
          We choose partners who handle information responsibly, but we do not control the cookies they set.
          You can read more about how we share information in our{' '}
          <Link to={paths.privacyPolicy}>Privacy Policy</Link>.
        </p>
      </>
    ),
  },
  {
    title: 'Managing Cookies',
    content: (
      <>
        <p>
          Most browsers let you see the cookies and stored data a website has placed, delete them, and block
          them for all websites or only for some. The help pages of your browser explain how. Clearing the
          data stored for OffZero will sign you out.
        </p>
        <p>
          If you block the strictly necessary items described above, you will not be able to sign in to your
          account. If you block third-party cookies, some features, such as paying with PayPal or completing
          identity verification, may not work.
        </p>
      </>
    ),
  },
  {
    title: 'Updates to This Policy',
    content: (
      <>
        <p>
          We may update this Cookie Policy when we change the website or the partners we work with. The date
          at the top of this page shows when it was last updated, and material changes will be announced on
          the website.
        </p>
        <p>
          If you have any questions about how we use cookies, contact us at <SupportEmail />.
        </p>
      </>
    ),
  },
];

export default function CookiePolicyPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      intro={
        <p>
          This Cookie Policy explains how OffZero uses cookies and similar technologies when you visit our
          website, and how you can control them.
        </p>
      }
      clauses={clauses}
    />
  );
}
