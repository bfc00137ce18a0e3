import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import {
  STEP_UP_DETAILS,
  STEP_UP_HEADER,
  STEP_UP_REFUSED,
  type StepUpAction,
  type StepUpDetails,
} from '@offzero/shared/api/passkeys';
import { AppError } from '../http/errors';
import { signedInUser } from '../auth/sessions';
import { countPasskeys, payoutHoldUntil } from './passkey.repository';
import { hashBinding } from './canonical-details';
import {
  AssertionRefused,
  assertionOptions,
  verifyAssertion,
  type CeremonyDeps,
} from './webauthn-ceremonies';

/**
 * Step-up bound to the action (docs/design.md, "Passkeys"): a customer with a passkey confirms each
 * guarded change with an assertion on a challenge the server made for that user, that action and the
 * canonical hash of its details; the assertion rides in `X-Step-Up` on the call it confirms and counts
 * once, within five minutes. Without a passkey the guard lets the call through (the e-mail and code
 * checks of each call still apply).
 */
export interface StepUpService {
  /** Request options for confirming `action` with these details; 400 if they do not fit the action. */
  options(
    userId: string,
    action: StepUpAction,
    details: unknown,
  ): Promise<PublicKeyCredentialRequestOptionsJSON>;
  /**
   * Throws 403 PASSKEY_STEP_UP_REQUIRED unless the user has no passkey or `header` carries a fresh,
   * unused assertion made for exactly this user, action and details.
   */
  confirm<A extends StepUpAction>(
    userId: string,
    action: A,
    details: StepUpDetails<A>,
    header: string | undefined,
  ): Promise<void>;
  /**
   * 409 while a recovery's payout hold runs: bank and Zelle payout details wait it out like new payout
   * addresses (whose hold is their `usableAt`).
   */
  assertNoPayoutHold(userId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    stepUp: StepUpService;
  }
}

function refused(): AppError {
  return new AppError('PASSKEY_STEP_UP_REQUIRED', STEP_UP_REFUSED);
}

/** The details of `action` in their checked, canonical form (what the binding hashes). */
function bindingOf(action: StepUpAction, details: unknown): string | null {
  const parsed = STEP_UP_DETAILS[action].safeParse(details);
  return parsed.success ? hashBinding(parsed.data) : null;
}

function readHeader(header: string): AuthenticationResponseJSON {
  try {
    const value: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as AuthenticationResponseJSON;
  } catch {
    throw new AssertionRefused('X-Step-Up is not base64url JSON');
  }
}

export function createStepUpService(
  deps: CeremonyDeps & { log?: { info(obj: object, msg: string): void } },
): StepUpService {
  return {
    async options(userId, action, details) {
      const parsed = STEP_UP_DETAILS[action].safeParse(details);
      if (!parsed.success) {
        throw new AppError(
          'BAD_REQUEST',
          'These details do not describe this change. Fill in the form again.',
        );
      }
      if ((await countPasskeys(deps.db, userId)) === 0) {
        throw new AppError('CONFLICT', 'You have no passkey: this change needs no confirmation.');
      }
      return assertionOptions(deps, {
        purpose: 'step-up',
        userId,
        action,
        bindingHash: hashBinding(parsed.data),
      });
    },

    async assertNoPayoutHold(userId) {
      const until = await payoutHoldUntil(deps.db, userId, deps.now());
      if (!until) return;
      throw new AppError(
        'CONFLICT',
        `Your account was recovered without a passkey: payout details can change from ${until.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
      );
    },

    async confirm(userId, action, details, header) {
      if ((await countPasskeys(deps.db, userId)) === 0) return;
      if (!header) throw refused();
      const binding = bindingOf(action, details);
      try {
        await verifyAssertion(
          deps,
          readHeader(header),
          (challenge) =>
            challenge.purpose === 'step-up' &&
            challenge.userId === userId &&
            challenge.action === action &&
            binding !== null &&
            challenge.bindingHash === binding,
        );
      } catch (error) {
        if (!(error instanceof AssertionRefused)) throw error;
        deps.log?.info({ action, reason: error.message }, 'step-up refused');
        throw refused();
      }
    },
  };
}

/** A route guard refusing a change of payout details while a recovery's payout hold runs (409). */
export function refuseDuringPayoutHold(
  app: FastifyInstance,
  applies: (request: FastifyRequest) => boolean = () => true,
): preHandlerAsyncHookHandler {
  return async (request) => {
    if (applies(request)) await app.stepUp.assertNoPayoutHold(signedInUser(request).user.id);
  };
}

/**
 * A route guard for a change a passkey must confirm: put it after `requireSignedIn` in `preHandler`;
 * `details` reads the change's details from the parsed request (the same fields the client sent to
 * `POST /api/step-up/options`).
 */
export function requireStepUp<A extends StepUpAction>(
  app: FastifyInstance,
  action: A,
  details: (request: FastifyRequest) => StepUpDetails<A> | null,
): preHandlerAsyncHookHandler {
  return async (request) => {
    const chosen = details(request);
    if (chosen === null) return;
    await app.stepUp.confirm(signedInUser(request).user.id, action, chosen, stepUpHeader(request));
  };
}

/** The `X-Step-Up` header of a request, if it has exactly one. */
export function stepUpHeader(request: FastifyRequest): string | undefined {
  const value = request.headers[STEP_UP_HEADER];
  return typeof value === 'string' ? value : undefined;
}
