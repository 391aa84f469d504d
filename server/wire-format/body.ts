/** The request body of a delivery: {"payload": "<base64>"}. */
import { jsonProblem } from '../../common/json-problem.ts';
import { WebhookCryptoError } from './problems.ts';

/** The exact body bytes a sender posts for a payload. */
export function deliveryBody(payloadBase64: string): string {
  return JSON.stringify({ payload: payloadBase64 });
}

/** The payload string from either the bare payload or a JSON body {"payload": "..."}. */
export function extractPayload(payloadOrBody: string): string {
  const trimmed = payloadOrBody.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw new WebhookCryptoError('PAYLOAD_NOT_BASE64', whyNotJson(trimmed));
  }
  if (typeof parsed === 'object' && parsed !== null && 'payload' in parsed && typeof parsed.payload === 'string') return parsed.payload;
  throw new WebhookCryptoError(
    'PAYLOAD_NOT_BASE64',
    'The JSON body has no string field "payload"; a delivery body is {"payload": "<base64>"}.',
  );
}

function whyNotJson(body: string): string {
  const problem = jsonProblem(body);
  if (problem?.reachesEnd)
    return 'The body looks cut off: it ends before its JSON is closed. Copy the whole body, from { to the closing }.';
  return `The body starts with "{" but is not valid JSON${problem ? ` (${problem.message})` : ''}; send {"payload": "<base64>"} or the base64 string alone.`;
}

/** Why a request body is not even shaped like a delivery (empty, not a JSON object), or null. */
export function notADeliveryBody(body: string): string | null {
  const trimmed = body.trim();
  if (trimmed === '') return 'The body is empty; a delivery body is {"payload": "<base64>"}.';
  if (!trimmed.startsWith('{')) return 'The body is not a JSON object; a delivery body is {"payload": "<base64>"}.';
  return null;
}
