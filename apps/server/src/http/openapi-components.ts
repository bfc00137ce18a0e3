import { z } from 'zod';
import { userSchema } from '@offzero/shared/api/accounts';
import { adminOrderSchema, kycCaseSchema, orderDetailSchema } from '@offzero/shared/api/admin';
import { errorBodySchema } from '@offzero/shared/api/errors';
import { orderSchema } from '@offzero/shared/api/orders';
import { payoutAddressSchema } from '@offzero/shared/api/payout-addresses';
import { payoutBatchSchema } from '@offzero/shared/api/payout-batches';
import { planSchema } from '@offzero/shared/api/plans';

/**
 * The shared answer shapes the OpenAPI document names once, under `components.schemas`, and points to
 * with `$ref` wherever a route answers with them (docs/design.md, "API"). Without names every use
 * inlined the whole shape: the error body alone is declared by nearly every operation. Only answers are
 * named here: a route's path, query and header schemas become OpenAPI parameters, which are read from
 * the schema's own properties and cannot be a `$ref`.
 */
const NAMED_SCHEMAS: Record<string, z.ZodType> = {
  ErrorBody: errorBodySchema,
  User: userSchema,
  Order: orderSchema,
  AdminOrder: adminOrderSchema,
  OrderDetail: orderDetailSchema,
  KycCase: kycCaseSchema,
  PayoutAddress: payoutAddressSchema,
  PayoutBatch: payoutBatchSchema,
  Plan: planSchema,
};

/**
 * Gives each shared shape its component name in zod's global registry, which the document's generator
 * reads, keeping any metadata (a description) already there. The same name given again is harmless.
 */
export function nameSharedSchemasForOpenApi(): void {
  for (const [id, schema] of Object.entries(NAMED_SCHEMAS)) {
    z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  }
}

/**
 * The generator writes every named shape twice, as a request (`…Input`) and as an answer; only those
 * the document points to are kept, so an unused twin does not weigh it down.
 */
interface DocumentWithSchemas {
  paths?: unknown;
  components?: { schemas?: Record<string, unknown> };
}
export function withoutUnusedComponentSchemas<Document extends DocumentWithSchemas>(
  document: Document,
): Document {
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  const used = new Set<string>();
  const visit = (text: string) => {
    for (const [, id] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(id!) || !schemas[id!]) continue;
      used.add(id!);
      visit(JSON.stringify(schemas[id!]));
    }
  };
  visit(JSON.stringify(document.paths ?? {}));
  const kept = Object.fromEntries(Object.entries(schemas).filter(([id]) => used.has(id)));
  return { ...document, components: { ...document.components, schemas: kept } };
}
