/**
 * The one table that maps {@link ErrorCode}s of {@link IndapiError} to HTTP statuses, and the
 * one place a thrown value becomes an error answer ({@link errorAnswer}): the contract's
 * Hono `onError` (registered once in handler.ts, as TiTiler registers its exception handler
 * once), its failed calls (routes-call.ts), the Node server's last guard (src/node/server.ts)
 * and the service worker's bundle reads (workers/sw-data.ts) all answer through it.
 * OpenCPU answers every error raised by R with 400 and the message as text/plain; we keep
 * that for everything the caller can fix in the request, and use the more precise status
 * where one exists (404 for what does not exist, 413 for what is too large, 5xx for
 * failures of the server itself).
 */
import { isIndapiError, type ErrorCode } from '../core/errors';
import { errorResponse, messageOf } from './http';

/** HTTP status for each error code. */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  UNKNOWN_CODE: 400,
  UNKNOWN_ISO3: 400,
  BAD_ARGUMENT: 400,
  UNUSED_ARGUMENT: 400,
  UNPARSABLE: 400,
  BAD_BREAKS: 400,
  UNKNOWN_CLASS: 400,
  BAD_WKT: 400,
  OUTSIDE_GRID: 400,
  TOO_LARGE: 413,
  // What does not exist answers 404, like the handler's unknown sessions, files and methods.
  // Failed calls are 400 (a unit `similar` cannot find is BAD_ARGUMENT, not NOT_FOUND).
  NOT_FOUND: 404,
  NO_MATCH: 400,
  BAD_FORMAT: 400,
  EMPTY_SELECTION: 400,
  // The client went away (or its own signal fired); nobody reads this answer. 499 is nginx's "client closed request".
  ABORTED: 499,
  IO: 500,
  // Not stored on this device and no network (service worker): try again online.
  OFFLINE: 503,
  // The data host (a folder or URL set by DATA_DIR / config.json) serves a broken bundle: an upstream failure.
  BAD_BUNDLE: 502,
  // A bundle file was republished under a running read (ETag changed): the read is refused, the file re-opened; try again.
  BUNDLE_CHANGED: 503,
  INTERNAL: 500,
};

/** Status for an error code; unknown codes (from newer cores) answer 500. */
export function statusFor(code: string): number {
  return (STATUS_BY_CODE as Record<string, number>)[code] ?? 500;
}

/**
 * HTTP status of any thrown value: an {@link IndapiError}'s code through the table, anything
 * else (a bug, a failure of the runtime) 500.
 */
export function statusOf(e: unknown): number {
  return isIndapiError(e) ? statusFor(e.code) : 500;
}

/**
 * The error answer of a thrown value, OpenCPU's text/plain layout ({@link errorResponse}):
 * an {@link IndapiError} answers its message with the table's status (and the call, when one
 * was made); anything else answers 500 `Internal error: <message>`.
 * @param e the thrown value
 * @param call the call as R source, for the "In call:" line (a failed call), else none
 * @param headers extra headers (e.g. `Retry-After`)
 */
export function errorAnswer(e: unknown, call?: string, headers: Record<string, string> = {}): Response {
  if (isIndapiError(e)) return errorResponse(statusFor(e.code), e.message, call, headers);
  return errorResponse(500, `Internal error: ${messageOf(e)}`, call, headers);
}
