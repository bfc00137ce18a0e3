import type { Database } from '../db/database';
import type { KycRecordRow, KycStatus } from '../db/schema';
import { AppError } from '../http/errors';
import { isPlaceCode, PLACE_MESSAGES } from '@offzero/shared/places/places';
import type { KycService } from '../kyc/kyc.service';
import type { DemoPayPalGateway, DemoWebhookDelivery } from '../rails/paypal/demo-paypal-gateway';
import { PayPalError } from '../rails/paypal/paypal-gateway';
import { findOutboxMessages, userExists, type OutboxMessageRow } from './dev.repository';

/**
 * The demo's shortcuts: decide a customer's KYC at once, read the e-mail and SMS the demo "sent",
 * refund a PayPal capture in the sandbox.
 */
export function createDevService(deps: { db: Database; kyc: KycService; paypal: DemoPayPalGateway | null }) {
  return {
    /**
     * The merchant refunds a capture in the PayPal sandbox: answers the signed `PAYMENT.CAPTURE.REFUNDED`
     * webhook the sandbox sends, for the caller to deliver to the webhook receiver.
     */
    async refundPayPalCapture(captureId: string): Promise<DemoWebhookDelivery> {
      if (!deps.paypal) throw new AppError('NOT_FOUND', 'The PayPal sandbox is not running.');
      try {
        return await deps.paypal.refund(captureId);
      } catch (error) {
        if (!(error instanceof PayPalError)) throw error;
        if (error.issue === 'RESOURCE_NOT_FOUND')
          throw new AppError('NOT_FOUND', 'No PayPal capture has this id.');
        throw new AppError('CONFLICT', 'This PayPal capture was already refunded.');
      }
    },

    /**
     * Sets a customer's KYC record; tests make a customer of any place and age with `residenceState`,
     * `fullName` and `approvedAt` (docs/design.md, "Places and the scam shield").
     */
    async decideKyc(
      userId: string,
      status: KycStatus,
      extra: {
        residenceState?: string | undefined;
        fullName?: string | undefined;
        approvedAt?: string | undefined;
      } = {},
    ): Promise<KycRecordRow> {
      if (!(await userExists(deps.db, userId))) throw new AppError('NOT_FOUND', 'No customer has this id.');
      const residenceState = extra.residenceState?.toUpperCase();
      if (residenceState !== undefined && !isPlaceCode(residenceState)) {
        throw new AppError('BAD_REQUEST', PLACE_MESSAGES.unknown(residenceState));
      }
      return deps.kyc.decide(userId, status, 'demo helper', null, {
        ...(residenceState ? { residenceState } : {}),
        ...(extra.fullName ? { legalName: extra.fullName } : {}),
        ...(extra.approvedAt ? { decidedAt: new Date(extra.approvedAt) } : {}),
      });
    },

    /** The newest messages, to `to` (any case) or to anyone. */
    outbox: (to: string | undefined): Promise<OutboxMessageRow[]> =>
      findOutboxMessages(deps.db, to?.toLowerCase()),
  };
}

export type DevService = ReturnType<typeof createDevService>;
