import { z } from 'zod';

export const errorCodes = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'VALIDATION_ERROR',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  'INTERNAL',
  'BAD_GATEWAY',
  'INSUFFICIENT_STORAGE',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const fieldProblemSchema = z.object({ path: z.string(), message: z.string() });
export type FieldProblem = z.infer<typeof fieldProblemSchema>;

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      details: z.array(fieldProblemSchema).optional(),
    }),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

const statusOf: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  INSUFFICIENT_STORAGE: 507,
  SERVICE_UNAVAILABLE: 503,
};

/** An error that becomes a JSON error response with the matching status. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: FieldProblem[] | undefined;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: FieldProblem[], headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = statusOf[code];
    this.details = details;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found.`);
export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);

/** Turns zod issues into the `details` of a VALIDATION_ERROR, each naming its field. */
export function validationError(where: string, error: z.ZodError): ApiError {
  const details = error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].filter(Boolean).join('.'),
    // zod says "Invalid input: expected string, received undefined" for a field left out.
    message: issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'is required' : issue.message,
  }));
  return invalidFields(details);
}

/** A VALIDATION_ERROR whose message sums up the field problems, each naming its field. */
export function invalidFields(details: FieldProblem[]): ApiError {
  const summary = details
    .map((d) => (/^[a-z]/.test(d.message) ? `${d.path.replace(/^(body|query|path)\./, '')} ${d.message}` : `${d.path}: ${d.message}`))
    .join('; ');
  return new ApiError('VALIDATION_ERROR', `Invalid request: ${summary}${/[.!?)]$/.test(summary) ? '' : '.'}`, details);
}
