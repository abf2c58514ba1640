/**
 * How a worker call's outcome crosses the worker boundary (structured clone drops an Error's
 * class): a value, or a typed error whose {@link ErrorCode} survives, shared by the engine and
 * files workers and their page clients.
 */
import { IndapiError, isIndapiError, type ErrorCode } from '../../src/core/errors';

/** A failure as it crosses the boundary. */
export interface WireError {
  /** The {@link IndapiError}'s code; ABORTED when cancelled, INTERNAL when the error was untyped. */
  code: ErrorCode;
  message: string;
  /** The error's detail, as JSON (functions and class instances do not cross). */
  detail?: Record<string, unknown>;
}

/** Outcome of a call: value or typed error. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: WireError };

/**
 * The wire form of a failure: an {@link IndapiError} keeps its code, message and detail; any other
 * error is ABORTED when the call's signal was aborted, else INTERNAL with its message.
 */
export function toWireError(e: unknown, aborted: boolean): WireError {
  if (isIndapiError(e)) return { code: e.code, message: e.message, detail: e.detail ? JSON.parse(JSON.stringify(e.detail)) : undefined };
  if (aborted) return { code: 'ABORTED', message: 'Cancelled.' };
  return { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) };
}

/** The {@link IndapiError} of a wire failure (on the page: the error the caller catches). */
export function fromWireError(w: WireError): IndapiError {
  return new IndapiError(w.code, w.message, w.detail);
}
