/**
 * Request bodies of OpenCPU's R client that carry R objects: `Content-Type: application/rds`
 * (`ocpu_post_rds`: the arguments as `serialize(args, NULL)`, a named list) and
 * `multipart/form-data` parts of type `application/rds` (`ocpu_post_multipart` sends every
 * non-atomic argument, e.g. `by = list(ELEVATION = c(0, 500))`, so). The objects are read by
 * the strict reader of `core/formats/rds-value.ts` (data only; nothing is evaluated) and
 * turned into the same argument values the JSON and R-literal encodings give.
 */
import { parseMultipart, MultipartParseError } from '@remix-run/multipart-parser';
import { MAX_IDS } from '../core/engine';
import { gunzipBounded, readRdsValue, RdsValueError, type RdsValue } from '../core/formats/rds-value';
import { BodyError, parseBody, type RawArgs } from './args';
import type { CallLimits } from './limits';
import { parseRLiteral, type RValue } from './rliteral';

/** Bounds of an R-object body. */
export interface RdsBodyLimits {
  /** Largest body, and largest decompressed body, in bytes (the request body limit). */
  maxBytes: number;
  /** Deepest nesting of lists (the call limit on argument nesting). */
  maxDepth: number;
}

/**
 * Most elements of all vectors and lists of one body together: twice the cell-id limit,
 * so an `ids` argument over its own limit is still read and answered 413 naming `ids`.
 */
export const RDS_MAX_ELEMENTS = 2 * MAX_IDS;

/**
 * Converts a value read from R to the argument value JSON or an R literal gives for it:
 * a length-one vector is a scalar (NA `null`), longer or empty vectors arrays, a factor
 * its level texts, named vectors and lists objects (an element without a name keyed by its
 * position, as the R-literal parser does), NULL `null`; NaN and Inf stay numbers as in
 * R literals.
 * @param v the value read
 * @returns the argument value
 */
export function rdsToRValue(v: RdsValue): RValue {
  if (v.type === 'NULL') return null;
  const elems: RValue[] =
    v.type === 'list' ? v.values.map(rdsToRValue) : (v.values as Array<string | number | boolean | null>);
  const names = v.names;
  if (names && names.some((n) => n !== '')) {
    const obj: { [k: string]: RValue } = {};
    elems.forEach((e, k) => (obj[names[k] || String(k + 1)] = e));
    return obj;
  }
  if (v.type !== 'list' && elems.length === 1) return elems[0];
  return elems;
}

/** One argument's value: as {@link rdsToRValue}, but a lone NA stays an NA vector (`[null]`), not NULL. */
function argValue(v: RdsValue): RValue {
  const x = rdsToRValue(v);
  return x === null && v.type !== 'NULL' ? [null] : x;
}

function readObject(bytes: Uint8Array, limits: RdsBodyLimits, what: string, name: string): RdsValue {
  try {
    const raw = gunzipBounded(bytes, limits.maxBytes);
    return readRdsValue(raw, { maxDepth: limits.maxDepth, maxElements: RDS_MAX_ELEMENTS, name });
  } catch (e) {
    if (e instanceof RdsValueError) throw new BodyError(400, `Cannot read the ${what}: ${e.message}.`);
    throw e;
  }
}

/**
 * Reads an `application/rds` body: one serialized named list, each element an argument.
 * @param bytes the body (gzip-compressed or not; serialization version 2 or 3)
 * @param limits size and nesting bounds
 * @returns the arguments in order
 * @throws BodyError 400 naming what was wrong: not R serialization, a refused object
 *   (environment, closure, language object...), a length beyond the body or the limits,
 *   nesting past the limit, a decompressed size past the body limit, a top level that is not
 *   a list, or an element without a name
 */
export function parseRdsBody(bytes: Uint8Array, limits: RdsBodyLimits): RawArgs {
  if (bytes.length === 0) return [];
  const v = readObject(bytes, limits, 'application/rds body', 'args');
  if (v.type === 'NULL') return [];
  if (v.type !== 'list') throw new BodyError(400, `The application/rds body must be a named list of the function arguments, e.g. serialize(list(var = "ELEVATION"), NULL) (got a ${v.type} vector).`);
  const names = v.names ?? [];
  const unnamed = v.values.findIndex((_, i) => !names[i]);
  if (unnamed >= 0) throw new BodyError(400, `The application/rds body must be a named list of the function arguments: element ${unnamed + 1} has no name.`);
  return v.values.map((x, i) => [names[i], argValue(x)]);
}

/** The `boundary` parameter of a multipart Content-Type. */
function boundaryOf(contentType: string): string {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) throw new BodyError(400, 'Malformed multipart/form-data body: the Content-Type has no boundary.');
  return m[1] ?? m[2];
}

/**
 * A multipart text field as an R literal. OpenCPU's R client percent-escapes the deparsed
 * value (`curl_escape(deparse(x))`) even in multipart fields, so a text that is not a literal
 * as sent but contains `%XX` escapes is read once more after unescaping.
 */
function fieldLiteral(text: string): RValue {
  try {
    return parseRLiteral(text);
  } catch (e) {
    if (!/%[0-9A-Fa-f]{2}/.test(text)) throw e;
    let unescaped: string;
    try {
      unescaped = decodeURIComponent(text);
    } catch {
      throw e;
    }
    return parseRLiteral(unescaped);
  }
}

/**
 * Reads a `multipart/form-data` body: each field is an argument, its text an R literal, or,
 * for a part of type `application/rds`, a serialized R object (as `ocpu_post_multipart`
 * sends lists); a percent-escaped literal is unescaped ({@link fieldLiteral}). File uploads (parts with a file name) are refused.
 * @param contentType the request's Content-Type (with the boundary)
 * @param bytes the body
 * @param limits size and nesting bounds
 * @returns the arguments in order
 * @throws BodyError 400 for a malformed body, a file upload or an unreadable R object
 * @throws IndapiError UNPARSABLE for a text field that is not an R literal
 */
export function parseMultipartBody(contentType: string, bytes: Uint8Array, limits: RdsBodyLimits): RawArgs {
  const out: RawArgs = [];
  try {
    const opts = { boundary: boundaryOf(contentType), maxFileSize: limits.maxBytes, maxTotalSize: limits.maxBytes };
    for (const part of parseMultipart(bytes, opts)) {
      const name = part.name;
      if (!name) throw new BodyError(400, 'Malformed multipart/form-data body: a part has no name.');
      if (part.filename !== undefined) throw new BodyError(400, `File uploads are not supported (field '${name}').`);
      const type = (part.mediaType ?? '').toLowerCase();
      if (type === 'application/rds') {
        out.push([name, argValue(readObject(part.bytes, limits, `application/rds field '${name}'`, name))]);
      } else {
        out.push([name, fieldLiteral(new TextDecoder().decode(part.bytes))]);
      }
    }
  } catch (e) {
    if (e instanceof MultipartParseError) throw new BodyError(400, `Malformed multipart/form-data body: ${e.message}`);
    throw e;
  }
  return out;
}

/**
 * Bodies of at least this many bytes (1 MiB) are parsed away from the thread that answers
 * requests when the runner can ({@link MethodRunner.parseBody} in `run.ts`): parsing a 9.5 MB
 * R-literal form takes seconds and some hundred MB, which would stall every other request.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** A request body to read: its Content-Type, its bytes (already within the body limit) and the bounds. */
export interface BodyInput extends RdsBodyLimits {
  /** The request's Content-Type header (null when absent). */
  contentType: string | null;
  /** The whole body. */
  bytes: Uint8Array;
  /** Check the call once parsed (`checkCall` in run.ts) where it is parsed: the method and the call limits. */
  check?: { method: string; limits: CallLimits };
}

/**
 * Reads the arguments of a call's body of any accepted type: multipart and `application/rds`
 * from their bytes ({@link parseMultipartBody}, {@link parseRdsBody}), the others as UTF-8
 * text ({@link parseBody}: JSON, form-encoded R literals). The same function runs in the
 * handler's thread and in the Node server's pool (bodies of {@link LARGE_BODY_BYTES} or more).
 * @returns the arguments in order
 * @throws BodyError (400, 413, 415) for a body that cannot be read; IndapiError UNPARSABLE for a
 *   form value that is not an R literal
 */
export function parseRequestBody(input: BodyInput): RawArgs {
  const ct = input.contentType;
  const type = (ct ?? '').split(';')[0].trim().toLowerCase();
  const limits = { maxBytes: input.maxBytes, maxDepth: input.maxDepth };
  if (type === 'multipart/form-data') return parseMultipartBody(ct!, input.bytes, limits);
  if (type === 'application/rds') return parseRdsBody(input.bytes, limits);
  return parseBody(ct, new TextDecoder('utf-8', { fatal: false }).decode(input.bytes));
}
