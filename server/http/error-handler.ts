import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { DiskSpace } from '../data-dir/disk-space.ts';
import { isBusy, SERVER_WRITE_WAIT_MS } from '../db/database.ts';
import { ApiError } from './errors.ts';
import { BODY_NOT_UTF8 } from './utf8-body.ts';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  /** The first broken byte of a body that is not UTF-8. */
  offset?: number;
}

/** Errors thrown by express's own body parsers, mapped onto the error contract. */
function fromBodyParser(error: BodyParserError): ApiError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError('VALIDATION_ERROR', 'The request body is not valid JSON.', [{ path: 'body', message: 'Malformed JSON' }]);
    case 'entity.too.large':
      return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${error.limit ?? '?'} bytes.`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body uses an unsupported charset or encoding; send UTF-8.');
    case BODY_NOT_UTF8:
      return new ApiError(
        'VALIDATION_ERROR',
        `The request body is not UTF-8 text: byte ${error.offset ?? '?'} (counting from 0) starts no UTF-8 character, and would be stored as U+FFFD. Send the body as UTF-8, as JSON is.`,
        [{ path: 'body', message: `is not UTF-8 at byte ${error.offset ?? '?'}` }],
      );
    case 'request.aborted':
      return new ApiError('VALIDATION_ERROR', 'The request body ended early.');
    default:
      return null;
  }
}

/** express's router could not decode a path parameter (e.g. `%E0%A4%A`). */
function badPath(path: string): ApiError {
  return new ApiError('VALIDATION_ERROR', `The path ${path} is not valid percent-encoding.`, [
    { path: 'path', message: 'Malformed percent-encoding' },
  ]);
}

export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new ApiError('NOT_FOUND', `No API route ${req.method} ${req.originalUrl.split('?')[0]}. See /api/docs for the routes.`));
};

/** A streamed answer (stream.pipeline) whose client hung up before its end. */
const clientWentAway = (error: unknown, res: Response) =>
  (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE' && res.destroyed;

/**
 * Every error becomes {"error": {...}}: ApiErrors as they are, a write the full disk refused as
 * 507 (the server goes on, reads still work), a write that waited too long for the database's
 * write lock as 503 with Retry-After, anything unexpected as a generic 500.
 */
export function errorHandler(logger: Logger, disk: DiskSpace): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (clientWentAway(error, res)) {
      logger.info({ method: req.method, path: req.path }, 'the client went away before the answer was complete');
      res.destroy();
      return;
    }
    const known =
      error instanceof ApiError
        ? error
        : error instanceof URIError
          ? badPath(req.path)
          : disk.recognise(error)
            ? new ApiError('INSUFFICIENT_STORAGE', disk.message)
            : isBusy(error)
              ? new ApiError(
                  'SERVICE_UNAVAILABLE',
                  `The database stayed busy for ${SERVER_WRITE_WAIT_MS / 1000} s (an import is writing a batch that takes long, e.g. a slow geocoder); nothing was changed. Try again in a moment.`,
                  undefined,
                  { 'Retry-After': '5' },
                )
              : fromBodyParser(error as BodyParserError);
    const apiError = known ?? new ApiError('INTERNAL', 'An unexpected error occurred. The details are in the server log.');
    if (!known) logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.set(apiError.headers).status(apiError.status).json(apiError.toBody());
  };
}
