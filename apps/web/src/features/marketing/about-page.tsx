import type { ComponentType, ReactNode } from 'react';
import { useAppConfig } from '../../lib/app-config';
import { paths } from '../../config/paths';
import { ButtonLink } from '../../components/ui/button';
import { Container } from '../../components/ui/container';
import { ArrowRightIcon, MailIcon, PercentIcon, ShieldIcon, SparkIcon } from '../../components/ui/icons';

export default function AboutPage() {
  const { supportEmail } = useAppConfig();
  return (
    <>
      <title>About Us — OffZero</title>

      <AboutHero />

      <Container className="max-w-4xl py-16 sm:py-24">
        <div className="space-y-16 sm:space-y-20">
          <AboutSection id="our-mission" title="Our Mission">
            <p>
              Most people who want to own bitcoin never buy their first satoshi. The apps are confusing, the
              fees are hard to find, and too many platforms ask you to leave your coins in their hands. Our
              mission is to take every American from zero bitcoin to their first purchase in a way that is
              simple, honest and safe.
            </p>
            <p>
              We believe owning bitcoin should mean actually holding it. That is why OffZero never keeps
              custody of customer coins: when you buy, your bitcoin is sent straight to a wallet address you
              control.
            </p>
          </AboutSection>

          <AboutSection id="who-we-are" title="Who We Are">
            <p>
              OffZero is a small team of engineers, compliance specialists and long-time bitcoiners based in
              the United States. We have watched friends and family struggle with exchanges that were built
              for traders rather than for savers, and we set out to build the service we wished they had used.
            </p>
            <p>
              We verify every customer&apos;s identity, as US law requires, and we work with established
              payment processors so that your dollars move through the same rails you already trust: PayPal,
              Zelle, ACH and bank wire.
            </p>
          </AboutSection>

          <AboutSection id="what-we-offer" title="What We Offer">
            <p>
              Buy bitcoin with US dollars and receive it at your own address, or send us bitcoin and receive
              dollars in your bank account. Everything in between is designed around three promises.
            </p>
            <ul className="mt-8 grid grid-cols-1 gap-5 sm:grid-cols-3">
              <Offer icon={SparkIcon} title="Ease of use">
                A guided, step-by-step flow from sign-up to your first order. No order books, no charts, no
                jargon.
              </Offer>
              <Offer icon={ShieldIcon} title="Security">
                Non-custodial by design, one-time codes instead of passwords, and identity checks handled by a
                specialist provider.
              </Offer>
              <Offer icon={PercentIcon} title="Transparent fees">
                A single platform fee and the network or bank charges, itemised on every quote before you
                commit.
              </Offer>
            </ul>
          </AboutSection>

          <AboutSection id="get-in-touch" title="Get in Touch">
            <p>
              Have a question about an order, your account or bitcoin in general? Our support team reads every
              message and will get back to you by e-mail.
            </p>
            <a
              href={`mailto:${supportEmail}`}
              className="mt-6 inline-flex max-w-full items-center gap-3 rounded-2xl border border-slate-200 bg-white px-5 py-4 font-semibold text-ink-900 shadow-sm transition-colors hover:border-brand-500"
            >
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <MailIcon />
              </span>
              <span className="wrap-break-word">{supportEmail}</span>
            </a>
            <p className="mt-6">
              New features are on the way. Want to hear first? Write to us with the subject
              &ldquo;Waitlist&rdquo; and we will add you to our waitlist for early access.
            </p>
          </AboutSection>
        </div>
      </Container>

      <StartCallToAction />
    </>
  );
}

/** The page's opening: what OffZero is, in one sentence. */
function AboutHero() {
  return (
    <section className="relative isolate overflow-hidden bg-ink-900 text-white">
      <div
        aria-hidden="true"
        className="absolute -top-32 left-1/2 -z-10 size-[34rem] -translate-x-1/2 rounded-full bg-brand-500/20 blur-3xl"
      />
      <Container className="py-16 text-center sm:py-24">
        <p className="text-sm font-semibold tracking-wider text-brand-500 uppercase">About Us</p>
        <h1 className="mx-auto mt-4 max-w-3xl text-4xl leading-tight font-bold tracking-tight sm:text-5xl">
          Helping everyday Americans get off zero
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-slate-300">
          OffZero is a US-based service for buying bitcoin with dollars and selling it back, built on one
          simple idea: your bitcoin belongs in your own wallet.
        </p>
      </Container>
    </section>
  );
}

/** The closing invitation to create an account. */
function StartCallToAction() {
  return (
    <section aria-labelledby="about-cta-heading" className="pb-20 sm:pb-24">
      <Container>
        <div className="relative isolate overflow-hidden rounded-3xl bg-brand-500 px-6 py-12 sm:px-12 sm:py-14">
          <div
            aria-hidden="true"
            className="absolute -right-16 -bottom-24 -z-10 size-80 rounded-full bg-white/20 blur-2xl"
          />
          <div className="flex flex-col items-start gap-6 md:flex-row md:items-center md:justify-between">
            <div>
              <h2
                id="about-cta-heading"
                className="text-2xl font-bold tracking-tight text-ink-900 sm:text-3xl"
              >
                Start your bitcoin journey today
              </h2>
              <p className="mt-2 max-w-xl text-base text-ink-900/80">
                Create a free account in minutes and buy your first bitcoin straight to your own wallet.
              </p>
            </div>
            <ButtonLink to={paths.register} variant="secondary" size="lg">
              Create Account
              <ArrowRightIcon className="size-4" />
            </ButtonLink>
          </div>
        </div>
      </Container>
    </section>
  );
}

function AboutSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="grid grid-cols-1 gap-6 md:grid-cols-[12rem_minmax(0,1fr)] md:gap-10"
    >
      <h2 id={`${id}-heading`} className="text-2xl font-bold tracking-tight text-ink-900 md:text-xl">
        <span className="mb-3 block h-1 w-10 rounded-full bg-brand-500" aria-hidden="true" />
        {title}
      </h2>
      <div className="space-y-4 text-base leading-7 text-slate-600 sm:text-lg sm:leading-8">{children}</div>
    </section>
  );
}

function Offer({
  icon: Icon,
  title,
  children,
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  children: ReactNode;
}) {
  return (
    <li className="rounded-2xl border border-slate-200 bg-slate-50 p-5">
      <span className="inline-flex size-10 items-center justify-center rounded-xl bg-ink-900 text-brand-500">
        <Icon />
      </span>
      <h3 className="mt-4 text-base font-semibold text-ink-900">{title}</h3>
      <p className="mt-2 text-sm leading-6 text-slate-600">{children}</p>
    </li>
  );
}
