import { ApiFailure } from './client.ts';

export interface PlainError {
  /** A short headline in plain words. */
  title: string;
  /** What happened and what to do, mostly the server's own message. */
  message: string;
  /** Field problems: the field as a person would name it, and what is wrong with it. */
  fields: { field: string; message: string }[];
}

const titles: Record<string, string> = {
  UNAUTHORIZED: 'Not signed in',
  FORBIDDEN: 'Not allowed',
  NOT_FOUND: 'Not found',
  VALIDATION_ERROR: 'Please check the input',
  PAYLOAD_TOO_LARGE: 'Too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported format',
  CONFLICT: 'Cannot do that now',
  TOO_MANY_REQUESTS: 'Too many attempts',
  INTERNAL: 'Something went wrong in the server',
  BAD_GATEWAY: 'Problem with the remote service',
};

/** "body.name" → "name", "query.per_page" → "per page". */
export function fieldLabel(path: string): string {
  return path.replace(/^(body|query|path)\.?/, '').replace(/_/g, ' ') || 'the request';
}

/**
 * A field problem as a sentence that names the field: "is required" for location reads
 * "Location is required.", zod's generic "Invalid input: …" reads "Location: Invalid input: ….";
 * anything else is the server's own wording and is kept as it is.
 */
export function fieldSentence(field: string, message: string): string {
  let text = message.trim();
  if (/received undefined$/i.test(text) || text === 'Required') text = 'is required';
  const name = field.charAt(0).toUpperCase() + field.slice(1);
  let sentence: string;
  if (/^(is|are|must|should|has|have|cannot|needs?|may|was|were)\b/.test(text)) sentence = `${name} ${text}`;
  else if (/^(Invalid|Too (big|small)|Expected|Unrecognized)\b/.test(text)) sentence = `${name}: ${text}`;
  else return text;
  return /[.!?)]$/.test(sentence) ? sentence : `${sentence}.`;
}

export function describeError(error: unknown): PlainError {
  if (error instanceof ApiFailure) {
    const fields = error.details.map((d) => ({ field: fieldLabel(d.path), message: fieldSentence(fieldLabel(d.path), d.message) }));
    let message = error.message;
    if (error.code === 'VALIDATION_ERROR' && fields.length > 0) message = 'The server did not accept some fields:';
    if (error.code === 'TOO_MANY_REQUESTS' && error.retryAfterSeconds) message += ` Try again in ${error.retryAfterSeconds} s.`;
    const title = error.status === 0 ? 'Server not reachable' : (error.code && titles[error.code]) || `Request failed (${error.status})`;
    return { title, message, fields };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { title: 'Something went wrong in this page', message, fields: [] };
}

/** The problem the server named for one field, to show next to that field. */
export function fieldProblem(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiFailure)) return undefined;
  const problem = error.details.find((d) => d.path === `body.${field}` || d.path === `query.${field}` || d.path === field);
  return problem && fieldSentence(fieldLabel(problem.path), problem.message);
}
