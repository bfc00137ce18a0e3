import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, hasErrorCode } from '../../../lib/api-client';

// GET /api/dev/outbox (demo mode only; production answers 404): the e-mails and text messages the
// demo "sent", newest first.
export const outboxMessageSchema = z.object({
  to: z.string(),
  channel: z.enum(['email', 'sms']),
  subject: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

const outboxAnswerSchema = z.object({ messages: z.array(outboxMessageSchema) });

export const OUTBOX_REFRESH_MS = 5000;

export function getOutbox(to: string, signal?: AbortSignal) {
  const query = to ? `?to=${encodeURIComponent(to)}` : '';
  return apiGet(`/dev/outbox${query}`, { schema: outboxAnswerSchema, signal });
}

export function useOutbox(to: string) {
  return useQuery({
    queryKey: ['dev', 'outbox', to],
    queryFn: async ({ signal }) => (await getOutbox(to, signal)).messages,
    // Keep watching for new codes, unless the outbox does not exist here.
    refetchInterval: (query) => (hasErrorCode(query.state.error, 'NOT_FOUND') ? false : OUTBOX_REFRESH_MS),
    retry: (failures, error) => !hasErrorCode(error, 'NOT_FOUND') && failures < 1,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
