import { useSearchParams } from 'react-router';
import { toast } from '../../lib/toast';
import { outboxFilterFormSchema } from '@offzero/shared/api/outbox';
import { errorMessage, hasErrorCode } from '../../lib/api-client';
import { firstError, useZodForm } from '../../lib/forms';
import { Button } from '../../components/ui/button';
import { Container } from '../../components/ui/container';
import { inputStyles } from '../../components/ui/text-field';
import { AlertIcon, CopyIcon, InboxIcon, MailIcon, PhoneIcon, RefreshIcon } from '../../components/ui/icons';
import { OUTBOX_REFRESH_MS, useOutbox, type OutboxMessage } from './api/get-outbox';

/**
 * The demo outbox (docs/design.md): in demo mode, e-mails and text messages are kept here instead
 * of being sent, so anyone can read their codes. `?to=` filters by recipient.
 */
export default function OutboxPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const to = searchParams.get('to')?.trim() ?? '';
  const form = useZodForm(outboxFilterFormSchema, { defaultValues: { to } });
  const outbox = useOutbox(to);
  const notAvailable = hasErrorCode(outbox.error, 'NOT_FOUND');

  // The schema trims the recipient; a blank one shows every message.
  const applyFilter = form.handleSubmit(
    (values) => setSearchParams(values.to ? { to: values.to } : {}, { replace: true }),
    (errors) => {
      const message = firstError(errors, ['to']);
      if (message) toast.error(message);
    },
  );

  function clearFilter() {
    form.reset({ to: '' });
    setSearchParams({}, { replace: true });
  }

  return (
    <div className="flex-1 bg-slate-50">
      <Container className="max-w-4xl! py-10 sm:py-14">
        <title>Demo outbox — OffZero</title>
        <div className="flex items-center gap-3">
          <span className="inline-flex size-11 items-center justify-center rounded-xl bg-ink-900 text-brand-500">
            <InboxIcon />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-ink-900 sm:text-3xl">Demo outbox</h1>
        </div>
        <p className="mt-4 rounded-2xl bg-brand-50 px-4 py-3 text-sm leading-6 text-ink-900 ring-1 ring-brand-200">
          In demo mode no e-mail or SMS leaves this machine. Every message OffZero would have sent is kept
          here instead, so you can read your one-time codes.
        </p>

        {notAvailable ? (
          <div className="mt-8 rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
            <AlertIcon className="mx-auto size-8 text-amber-500" />
            <p className="mt-3 font-semibold text-ink-900">The outbox exists only in demo mode.</p>
            <p className="mt-1 text-sm text-slate-600">
              This server sends real e-mails and text messages, so there is nothing to show here.
            </p>
          </div>
        ) : (
          <>
            <form
              role="search"
              onSubmit={(event) => void applyFilter(event)}
              className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-end"
            >
              <div className="flex-1">
                <label htmlFor="outbox-recipient" className="block text-sm font-medium text-slate-700">
                  Recipient
                </label>
                <input
                  id="outbox-recipient"
                  type="search"
                  {...form.register('to')}
                  placeholder="you@example.com or +12025550123"
                  autoComplete="off"
                  className={inputStyles(false, 'mt-1.5')}
                />
              </div>
              <div className="flex gap-2">
                <Button type="submit" variant="secondary" className="flex-1 sm:flex-none">
                  Filter
                </Button>
                {to && (
                  <Button variant="outline" onClick={clearFilter} className="flex-1 sm:flex-none">
                    Show all
                  </Button>
                )}
                <Button
                  variant="outline"
                  onClick={() => void outbox.refetch()}
                  disabled={outbox.isFetching}
                  className="flex-1 sm:flex-none"
                >
                  <RefreshIcon className={`size-4 ${outbox.isFetching ? 'animate-spin' : ''}`} />
                  Refresh
                </Button>
              </div>
            </form>
            <p className="mt-3 text-xs text-slate-500" aria-live="polite">
              {to ? (
                <>
                  Showing messages to <strong className="font-semibold text-slate-700">{to}</strong>.{' '}
                </>
              ) : (
                'Showing the latest 100 messages. '
              )}
              Refreshes every {OUTBOX_REFRESH_MS / 1000} seconds
              {outbox.dataUpdatedAt > 0 &&
                ` · updated ${new Date(outbox.dataUpdatedAt).toLocaleTimeString()}`}
              .
            </p>

            <OutboxMessages outbox={outbox} to={to} />
          </>
        )}
      </Container>
    </div>
  );
}

/** The messages kept, or why there are none to show. */
function OutboxMessages({ outbox, to }: { outbox: ReturnType<typeof useOutbox>; to: string }) {
  return (
    <div className="mt-6">
      {outbox.isPending ? (
        <div role="status" aria-label="Loading" className="space-y-3">
          {[0, 1, 2].map((index) => (
            <div key={index} className="h-36 animate-pulse rounded-2xl bg-slate-200/70" />
          ))}
        </div>
      ) : outbox.error && !outbox.data ? (
        <div role="alert" className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
          <p className="font-semibold text-ink-900">We could not load the outbox.</p>
          <p className="mt-1 text-sm text-slate-600">{errorMessage(outbox.error)}</p>
        </div>
      ) : outbox.data.length === 0 ? (
        <div className="rounded-2xl border-2 border-dashed border-slate-200 p-10 text-center">
          <InboxIcon className="mx-auto size-8 text-slate-400" />
          <p className="mt-3 font-semibold text-ink-900">No messages yet</p>
          <p className="mt-1 text-sm text-slate-600">
            {to
              ? 'Nothing has been sent to this recipient. Check the spelling: the filter matches the whole address.'
              : 'Codes appear here as soon as someone registers or logs in.'}
          </p>
        </div>
      ) : (
        <ol className="space-y-3" data-testid="outbox-messages">
          {outbox.data.map((message, index) => (
            <OutboxItem key={`${message.createdAt}-${message.to}-${index}`} message={message} />
          ))}
        </ol>
      )}
    </div>
  );
}

function OutboxItem({ message }: { message: OutboxMessage }) {
  const Icon = message.channel === 'email' ? MailIcon : PhoneIcon;
  const sentAt = new Date(message.createdAt);
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80 sm:p-5">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-3">
          <span
            className={`inline-flex size-10 shrink-0 items-center justify-center rounded-xl ${
              message.channel === 'email' ? 'bg-sky-50 text-sky-700' : 'bg-emerald-50 text-emerald-700'
            }`}
          >
            <Icon className="size-5" />
            <span className="sr-only">{message.channel === 'email' ? 'E-mail' : 'Text message'}</span>
          </span>
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-ink-900">{message.to}</p>
            <p className="truncate text-sm text-slate-600">{message.subject}</p>
            <time dateTime={message.createdAt} className="text-xs text-slate-500">
              {sentAt.toLocaleString()}
            </time>
          </div>
        </div>
        {message.code && <CopyableCode code={message.code} />}
      </div>
      <p className="mt-3 rounded-xl bg-slate-50 px-3 py-2 text-sm leading-6 break-words whitespace-pre-line text-slate-700">
        {message.text}
      </p>
    </li>
  );
}

function CopyableCode({ code }: { code: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      toast.success('Text Copied!');
    } catch (error) {
      console.error('Could not copy the code', error);
    }
  }
  return (
    <div className="flex items-center gap-2 self-start sm:self-auto">
      <span
        data-testid="outbox-code"
        className="font-mono text-2xl font-bold tracking-[0.2em] text-ink-900 sm:text-3xl"
      >
        {code}
      </span>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={`Copy code ${code}`}
        className="inline-flex size-10 items-center justify-center rounded-full text-slate-500 ring-1 ring-slate-200 hover:bg-brand-50 hover:text-brand-700"
      >
        <CopyIcon className="size-4.5" />
      </button>
    </div>
  );
}
