// Receiving webhooks: a delivery is verified as Standard Webhooks specifies (HMAC-SHA256 of
// "id.timestamp.body", a timestamp within 5 minutes), with the standardwebhooks package the platform
// signs with. During a secret rotation the platform sends two signatures, and a receiver may hold
// both secrets: any of them that verifies the delivery is enough.
import { Webhook } from 'standardwebhooks';

/** The body of every delivery (docs/webhooks.md): `details` is the type's own. */
export interface WebhookDelivery {
  type: string;
  timestamp: string;
  data: {
    changeId?: string;
    organisationId: string | null;
    eventId: string | null;
    resourceType: string;
    resourceId: string;
    revision: number | null;
    details: Record<string, unknown>;
  };
}

export interface VerifiedWebhook extends WebhookDelivery {
  /** webhook-id: the same on every retry of a delivery, so drop the ones already handled. */
  webhookId: string;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/**
 * Verifies a delivery and answers its body. `body` must be the raw body as received: parsing and
 * serialising it again changes the bytes that were signed.
 */
export function verifyWebhook(body: string | Uint8Array, headers: WebhookHeaders, secrets: string | string[]): VerifiedWebhook {
  const flat = flatten(headers);
  const payload = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const list = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0) throw new TypeError('verifyWebhook needs at least one secret (whsec_…).');
  let failure: unknown;
  for (const secret of list) {
    try {
      const delivery = new Webhook(secret).verify(payload, flat) as WebhookDelivery;
      return { ...delivery, webhookId: flat['webhook-id'] };
    } catch (error) {
      failure = error;
    }
  }
  throw new WebhookVerificationError(`The webhook delivery is not verified: ${(failure as Error).message}.`, { cause: failure });
}

function flatten(headers: WebhookHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (flat[name] = value));
  else for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
  return flat;
}
