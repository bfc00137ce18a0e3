import type { ComponentType, ReactNode } from 'react';
import { paths } from '../../config/paths';
import { ButtonLink } from '../../components/ui/button';
import { Container } from '../../components/ui/container';
import {
  ArrowRightIcon,
  BoltIcon,
  CardIcon,
  CheckIcon,
  IdCardIcon,
  PercentIcon,
  ShieldIcon,
  SupportIcon,
  UserIcon,
  WalletIcon,
} from '../../components/ui/icons';

/**
 * The home page. The hero holds the trade widget, which the composing route passes in (`tradeWidget`):
 * marketing does not reach into the trade feature itself.
 */
export function HomePage({ tradeWidget }: { tradeWidget: ReactNode }) {
  return (
    <>
      <title>OffZero — Buy and sell bitcoin</title>
      <Hero tradeWidget={tradeWidget} />
      <Features />
      <HowItWorks />
      <ClosingCallToAction />
    </>
  );
}

function Hero({ tradeWidget }: { tradeWidget: ReactNode }) {
  return (
    <section className="relative isolate overflow-hidden bg-ink-900 text-white">
      <HeroBackdrop />
      <Container className="grid grid-cols-1 items-center gap-12 py-14 sm:py-20 lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)] lg:gap-16 lg:py-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white/5 px-3 py-1 text-xs font-medium text-slate-300 ring-1 ring-white/10">
            <span className="size-1.5 rounded-full bg-brand-500" aria-hidden="true" />
            Self-custody · Based in the USA
          </p>
          <h1 className="mt-6 text-4xl leading-[1.1] font-bold tracking-tight sm:text-5xl lg:text-6xl">
            Buy Bitcoin <span className="block text-brand-500">straight to your own wallet</span>
          </h1>
          <p className="mt-6 text-lg font-medium text-balance text-slate-200 sm:text-xl">
            The safest and easiest way to buy Bitcoin. Get Off Zero!
          </p>
          <p className="mt-4 max-w-xl text-base leading-7 text-slate-400">
            Pay in US dollars with PayPal, Zelle, ACH or wire and receive bitcoin at an address you control.
            Sell it back for dollars whenever you like. We never hold your coins.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <ButtonLink to={paths.register} size="lg">
              Create Account
              <ArrowRightIcon className="size-4" />
            </ButtonLink>
            <ButtonLink to={{ hash: '#how-it-works' }} variant="inverse" size="lg">
              See how it works
            </ButtonLink>
          </div>
          <ul className="mt-10 flex flex-wrap gap-x-6 gap-y-3 text-sm text-slate-300">
            {['You keep the keys', 'Fees shown before you pay', 'Support based in the USA'].map((point) => (
              <li key={point} className="flex items-center gap-2">
                <CheckIcon className="size-4 shrink-0 text-brand-500" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <div className="mx-auto w-full max-w-md lg:mr-0">{tradeWidget}</div>
      </Container>
    </section>
  );
}

/** Decorative glow and grid behind the hero; purely visual. */
function HeroBackdrop() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
      <div className="absolute -top-40 right-[-10%] size-[36rem] rounded-full bg-brand-500/20 blur-3xl" />
      <div className="absolute bottom-[-30%] left-[-15%] size-[30rem] rounded-full bg-sky-500/10 blur-3xl" />
      <svg className="absolute inset-0 size-full opacity-[0.07]">
        <defs>
          <pattern id="hero-grid" width="48" height="48" patternUnits="userSpaceOnUse">
            <path d="M48 0H0v48" fill="none" stroke="white" strokeWidth="1" />
          </pattern>
        </defs>
        <rect width="100%" height="100%" fill="url(#hero-grid)" />
      </svg>
    </div>
  );
}

const features: { icon: ComponentType<{ className?: string }>; title: string; body: string }[] = [
  {
    icon: BoltIcon,
    title: 'Fast transactions',
    body: 'Your order moves as soon as your payment clears. PayPal payments are confirmed at checkout; bank transfers take as long as your bank does.',
  },
  {
    icon: CardIcon,
    title: 'Pay with PayPal, Visa or MasterCard',
    body: 'Check out with PayPal, including the Visa and MasterCard cards in your PayPal wallet, or pay by Zelle, ACH or wire transfer.',
  },
  {
    icon: ShieldIcon,
    title: 'Data security',
    body: 'Your personal data travels encrypted, identity documents go straight to a specialist verification provider, and sign-in uses one-time codes instead of passwords.',
  },
  {
    icon: WalletIcon,
    title: 'Self-custody',
    body: 'Bitcoin you buy is sent to your own wallet address. OffZero never holds customer coins, so your savings are never at the mercy of an exchange.',
  },
  {
    icon: PercentIcon,
    title: 'Low, upfront fees',
    body: 'One clear platform fee plus the bitcoin network fee, both itemised on your quote before you pay anything.',
  },
  {
    icon: SupportIcon,
    title: 'People who answer',
    body: 'Questions about an order? Write to our US-based support team and a person, not a bot, will answer by e-mail.',
  },
];

function Features() {
  return (
    <section aria-labelledby="features-heading" className="bg-white py-20 sm:py-28">
      <Container>
        <SectionHeading eyebrow="Why OffZero" id="features-heading" title="Bitcoin without the busywork">
          Everything you need to go from zero to your first sats, and nothing that puts your coins at risk.
        </SectionHeading>
        <ul className="mt-14 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ icon: Icon, title, body }) => (
            <li
              key={title}
              className="group rounded-2xl border border-slate-200 bg-white p-6 transition-shadow hover:shadow-lg hover:shadow-slate-200/60 sm:p-7"
            >
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
                <Icon className="size-5.5" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-ink-900">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{body}</p>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

const steps: { icon: ComponentType<{ className?: string }>; title: string; body: string }[] = [
  {
    icon: UserIcon,
    title: 'Create your account',
    body: 'Sign up with a valid email address and phone number. We send a one-time code to each to confirm they are yours.',
  },
  {
    icon: IdCardIcon,
    title: 'Complete KYC verification',
    body: 'Verify your identity with a government-issued ID, as US anti-money-laundering rules require.',
  },
  {
    icon: WalletIcon,
    title: 'Buy or sell Bitcoin',
    body: 'Buy with dollars and receive BTC at your own wallet address, or send BTC and get dollars by Zelle, ACH or wire.',
  },
];

function HowItWorks() {
  return (
    <section
      id="how-it-works"
      aria-labelledby="how-heading"
      className="border-y border-slate-200 bg-slate-50 py-20 sm:py-28"
    >
      <Container>
        <SectionHeading eyebrow="Get started in three steps" id="how-heading" title="How It Works">
          From sign-up to your first purchase takes just a few minutes once your identity is verified.
        </SectionHeading>
        <ol className="relative mt-14 grid grid-cols-1 gap-6 lg:grid-cols-3 lg:gap-8">
          {steps.map(({ icon: Icon, title, body }, index) => (
            <li
              key={title}
              className="relative rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-7"
            >
              <div className="flex items-center justify-between">
                <span className="inline-flex size-11 items-center justify-center rounded-xl bg-ink-900 text-brand-500">
                  <Icon className="size-5.5" />
                </span>
                <span className="text-4xl font-bold text-slate-500 tabular-nums" aria-hidden="true">
                  0{index + 1}
                </span>
              </div>
              <h3 className="mt-5 text-lg font-semibold text-ink-900">
                <span className="sr-only">Step {index + 1}: </span>
                {title}
              </h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{body}</p>
            </li>
          ))}
        </ol>
      </Container>
    </section>
  );
}

function ClosingCallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-white py-20 sm:py-24">
      <Container>
        <div className="relative isolate overflow-hidden rounded-3xl bg-ink-900 px-6 py-14 text-center sm:px-12 sm:py-16">
          <div
            aria-hidden="true"
            className="absolute -top-24 left-1/2 -z-10 size-[28rem] -translate-x-1/2 rounded-full bg-brand-500/25 blur-3xl"
          />
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Ready to get off zero?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-base leading-7 text-slate-300">
            Open a free account, verify your identity once, and buy your first bitcoin straight to your own
            wallet.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to={paths.register} size="lg">
              Create Account
              <ArrowRightIcon className="size-4" />
            </ButtonLink>
            <ButtonLink to={paths.about} variant="inverse" size="lg">
              Learn about OffZero
            </ButtonLink>
          </div>
        </div>
      </Container>
    </section>
  );
}

function SectionHeading({
  eyebrow,
  id,
  title,
  children,
}: {
  eyebrow: string;
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">
        {title}
      </h2>
      <p className="mt-4 text-base leading-7 text-slate-600 sm:text-lg">{children}</p>
    </div>
  );
}
