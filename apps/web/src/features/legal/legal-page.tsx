import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAppConfig } from '../../lib/app-config';
import { paths } from '../../config/paths';
import { Container } from '../../components/ui/container';

export const LAST_UPDATED = 'November 1, 2026';

export interface LegalClause {
  /** The heading without its number; the page numbers clauses in order. */
  title: string;
  content: ReactNode;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const otherDocuments = [
  { to: paths.termsOfUse, label: 'Terms of Use' },
  { to: paths.privacyPolicy, label: 'Privacy Policy' },
  { to: paths.cookiePolicy, label: 'Cookie Policy' },
  { to: paths.refundPolicy, label: 'Refund Policy' },
];

/** The shared frame of the legal documents: title, date, numbered clauses and a contents list. */
export function LegalPage({
  title,
  intro,
  clauses,
}: {
  title: string;
  intro: ReactNode;
  clauses: LegalClause[];
}) {
  const numbered = clauses.map((clause, index) => ({ ...clause, number: index + 1, id: slug(clause.title) }));

  return (
    <>
      <title>{`${title} — OffZero`}</title>
      <header className="border-b border-slate-200 bg-slate-50">
        <Container className="py-12 sm:py-16">
          <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">Legal</p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">{title}</h1>
          <p className="mt-3 text-sm text-slate-500">Last updated: {LAST_UPDATED}</p>
        </Container>
      </header>

      <Container className="grid grid-cols-1 gap-10 py-12 sm:py-16 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-16">
        <aside className="hidden lg:block">
          <nav aria-label="On this page" className="sticky top-24">
            <p className="text-xs font-semibold tracking-wider text-slate-500 uppercase">On this page</p>
            <ol className="mt-4 space-y-1 border-l border-slate-200">
              {numbered.map((clause) => (
                <li key={clause.id}>
                  <a
                    href={`#${clause.id}`}
                    className="-ml-px block border-l border-transparent py-1.5 pl-4 text-sm text-slate-600 hover:border-brand-500 hover:text-ink-900"
                  >
                    {clause.number}. {clause.title}
                  </a>
                </li>
              ))}
            </ol>
            <p className="mt-8 text-xs font-semibold tracking-wider text-slate-500 uppercase">
              Other documents
            </p>
            <ul className="mt-3 space-y-2">
              {otherDocuments
                .filter((document) => document.label !== title)
                .map((document) => (
                  <li key={document.to}>
                    <Link to={document.to} className="text-sm text-slate-600 hover:text-ink-900">
                      {document.label}
                    </Link>
                  </li>
                ))}
            </ul>
          </nav>
        </aside>

        <article className="max-w-3xl min-w-0">
          <div className="legal-prose text-base leading-7 text-slate-700 sm:text-lg sm:leading-8">
            {intro}
          </div>
          {numbered.map((clause) => (
            <section
              key={clause.id}
              aria-labelledby={clause.id}
              className="mt-12 border-t border-slate-100 pt-10"
            >
              <h2 id={clause.id} className="text-xl font-semibold tracking-tight text-ink-900 sm:text-2xl">
                <span className="text-brand-700">{clause.number}.</span> {clause.title}
              </h2>
              <div className="legal-prose mt-5 text-base leading-7 text-slate-600">{clause.content}</div>
            </section>
          ))}
          <p className="mt-14 rounded-2xl bg-slate-50 p-6 text-sm leading-6 text-slate-600 ring-1 ring-slate-200">
            Questions about this document? Write to us at <SupportEmail /> and we will be happy to help.
          </p>
        </article>
      </Container>
    </>
  );
}

/** The support address from the server's configuration, as a mail link. */
export function SupportEmail() {
  const { supportEmail } = useAppConfig();
  return (
    <a
      href={`mailto:${supportEmail}`}
      className="font-medium wrap-break-word text-brand-700 underline underline-offset-2 hover:text-brand-800"
    >
      {supportEmail}
    </a>
  );
}
