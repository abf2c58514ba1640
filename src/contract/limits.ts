/**
 * Limits of a call, checked on the raw arguments before any work (no engine, no worker):
 * a request over one of them answers 400 text/plain naming the argument, with the
 * `In call:` line like every failed call (OpenCPU's error layout). The same checks run in
 * the Node server and in the service worker; the limits on a result (cells in a per-cell
 * answer, bytes of a session's value) are checked as soon as the result is known, before
 * it is printed or stored. The values are stated in `man/indapi` and the README ("Limits").
 * Counts the engine already bounds (cell ids, WKT vertices) keep the engine's limit and
 * its status (413, as the engine's TOO_LARGE); the others answer 400.
 */
import { MAX_BREAKS, MAX_BY_BREAKS } from '../core/r/breaks';
import { MAX_IDS } from '../core/engine';
import { IndapiError } from '../core/errors';
import { MAX_WKT_LENGTH, MAX_WKT_VERTICES } from '../core/wkt/parse';
import type { RawArgs } from './args';

/** The limits; every field is a count (levels, breaks, ids, vertices, rows) or bytes. */
export interface CallLimits {
  /** Deepest nesting of any argument value (JSON arrays and objects, R lists): 64 levels. */
  maxDepth: number;
  /** Most codes in `by`: 10. */
  maxByCodes: number;
  /** Most breaks or classes of one `by` code: the breaks rule's `MAX_BY_BREAKS` (1000; src/core/breaks.ts). */
  maxByValues: number;
  /** Most travel-time breaks of `minutes` (catchment): the breaks rule's `MAX_BREAKS` (100; src/core/breaks.ts). */
  maxMinutesBreaks: number;
  /** Most cell ids in `ids`: the engine's `MAX_IDS` (1 000 000); over it answers 413. */
  maxIds: number;
  /** Most vertices of all WKT shapes of a call (`wkt`, `domains`) or GeoJSON coordinates of `domains`: the WKT parser's `MAX_WKT_VERTICES` (100 000); over it answers 413. */
  maxVertices: number;
  /** Deepest nesting of parentheses in a WKT string (a GEOMETRYCOLLECTION of MULTIPOLYGONs needs 4): 32. */
  maxWktDepth: number;
  /** Most shapes summarised one by one in a `wkt`: members of a GEOMETRYCOLLECTION: 5 000 (each is a query of its own, rows per country; 50 000 took 7 s). */
  maxShapes: number;
  /** Most features of `domains` (classify: GeoJSON features or WKT entries, collections by member), all summarised in one pass: 10 000. */
  maxDomains: number;
  /** Most vertices of all shapes of `domains` (WKT vertices, GeoJSON coordinate pairs): 1 000 000 (answers 413, as `wkt`'s vertices). */
  maxDomainVertices: number;
  /** Most grid cells the polygon edges of a call's WKT cross in all (rows plus columns of 5 arc-minutes each edge spans, plus one): 2 000 000 (a 99,990-vertex zigzag crosses 4.8 M and took 18 s). */
  maxEdgeCells: number;
  /** Most rows of a per-cell answer (`collapse = FALSE`): 100 000 (a country; use `format = "csv"`, `"tif"` or a smaller area for more). */
  maxCellRows: number;
  /** Largest value of a session, as JSON: 32 MB. */
  maxValueBytes: number;
}

/** The default limits (see {@link CallLimits} for each value). */
export const DEFAULT_LIMITS: Readonly<CallLimits> = {
  maxDepth: 64,
  maxByCodes: 10,
  maxByValues: MAX_BY_BREAKS,
  maxMinutesBreaks: MAX_BREAKS,
  maxIds: MAX_IDS,
  maxVertices: MAX_WKT_VERTICES,
  maxWktDepth: 32,
  maxShapes: 5000,
  maxDomains: 10_000,
  maxDomainVertices: 1_000_000,
  maxEdgeCells: 2_000_000,
  maxCellRows: 100_000,
  maxValueBytes: 32 * 1024 * 1024,
};

function tooMuch(message: string, call: string, code: 'BAD_ARGUMENT' | 'TOO_LARGE' = 'BAD_ARGUMENT'): IndapiError {
  return new IndapiError(code, message, { call });
}

/**
 * Nesting depth of a JSON-like value (a scalar is 0, `[1]` is 1), counted without recursion
 * and stopping as soon as it passes `stopAt`.
 */
export function nestingDepth(v: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    const depth = d + 1;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAt) return deepest;
    for (const c of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) if (c !== null && typeof c === 'object') stack.push([c, depth]);
  }
  return deepest;
}

/** Vertices (pairs of numbers) and deepest parenthesis nesting of a WKT string, by a scan that does not parse it. */
export function wktSize(wkt: string): { vertices: number; depth: number } {
  let depth = 0;
  let deepest = 0;
  let numbers = 0;
  let inNumber = false;
  for (let i = 0; i < wkt.length; i++) {
    const c = wkt.charCodeAt(i);
    if (c === 40 /* ( */) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 41 /* ) */) depth--;
    const digit = (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69;
    if (digit && !inNumber) numbers++;
    inNumber = digit;
  }
  return { vertices: Math.ceil(numbers / 2), depth: deepest };
}

/** Cells per degree of the 5-arc-minute grid, for {@link wktEdgeCells}. */
const CELLS_PER_DEGREE = 12;

/**
 * Grid cells the edges of a WKT string's polygons cross, at most: per edge, the 5-arc-minute
 * rows and columns it spans plus one (the work of rasterising it, with or without `exact`),
 * by a scan that does not parse it (points and their lists count nothing).
 */
export function wktEdgeCells(wkt: string): number {
  if (!/POLYGON/i.test(wkt)) return 0;
  let n = 0;
  let polygon = false;
  let wordStart = -1;
  let numStart = -1;
  let x = NaN, px = NaN, py = NaN;
  let half = false; // a first coordinate of a pair is read
  for (let i = 0; i <= wkt.length; i++) {
    const c = i < wkt.length ? wkt.charCodeAt(i) : 32;
    const inNumber = (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || ((c === 101 || c === 69) && numStart >= 0);
    if (inNumber) {
      if (numStart < 0) numStart = i;
      continue;
    }
    if (numStart >= 0) {
      const v = Number(wkt.slice(numStart, i));
      numStart = -1;
      if (!half) {
        x = v;
        half = true;
      } else {
        half = false;
        if (polygon && px === px) n += (Math.abs(x - px) + Math.abs(v - py)) * CELLS_PER_DEGREE + 1;
        px = x;
        py = v;
      }
    }
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (letter) {
      if (wordStart < 0) wordStart = i;
      continue;
    }
    if (wordStart >= 0) {
      polygon = /POLYGON$/i.test(wkt.slice(wordStart, i));
      wordStart = -1;
    }
    if (c === 40 || c === 41) {
      px = py = NaN;
      half = false;
    }
  }
  return n;
}

/** Shapes of a value (WKT strings by {@link wktShapes}, GeoJSON features), for the message of a refused call: no other scan. */
function countShapes(v: unknown): number {
  let shapes = 0;
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (/^\s*[A-Za-z]+\s*(Z|M|ZM)?\s*\(/.test(x)) shapes += wktShapes(x); // WKT only, as shapeVertices
    } else if (x !== null && typeof x === 'object') {
      if ((x as { type?: unknown }).type === 'Feature') shapes++;
      for (const c of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) stack.push(c);
    }
  }
  return shapes;
}

/** Shapes a WKT string is summarised as: the members of a GEOMETRYCOLLECTION (its commas at depth 1, plus one), else 1. */
export function wktShapes(wkt: string): number {
  if (!/^\s*GEOMETRYCOLLECTION\s*\(/i.test(wkt)) return 1;
  let depth = 0;
  let n = 1;
  for (let i = 0; i < wkt.length; i++) {
    const c = wkt.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41) depth--;
    else if (c === 44 && depth === 1) n++;
  }
  return n;
}

/** Vertices of all WKT strings and GeoJSON coordinate pairs in a value (`domains`), and its shapes (WKT strings or GeoJSON features, collections by member), without recursion. */
function shapeVertices(v: unknown, wktDepth: (depth: number) => void, stopAtShapes = Infinity): { vertices: number; shapes: number; edgeCells: number } {
  let n = 0;
  let shapes = 0;
  let edgeCells = 0;
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (/^\s*[A-Za-z]+\s*(Z|M|ZM)?\s*\(/.test(x)) {
        const s = wktSize(x);
        wktDepth(s.depth);
        n += s.vertices;
        shapes += wktShapes(x);
        if (shapes > stopAtShapes) break; // refused anyway: the rest is not scanned
        edgeCells += wktEdgeCells(x);
      }
    } else if (typeof x === 'number') n += 0.5;
    else if (x !== null && typeof x === 'object') {
      if ((x as { type?: unknown }).type === 'Feature' && ++shapes > stopAtShapes) break;
      for (const c of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) stack.push(c);
    }
  }
  return { vertices: Math.ceil(n), shapes, edgeCells };
}

/**
 * Checks the raw arguments of a call against the limits, before any work.
 * @param raw arguments as parsed from the body (JSON values or R literals)
 * @param call the call as shown in errors (`In call:`)
 * @throws IndapiError naming the argument and the limit, `detail.call` = `call`: BAD_ARGUMENT (400) for
 *   nesting and `by`, TOO_LARGE (413, as the engine) for `ids` and vertices
 */
export function checkCallLimits(raw: RawArgs, call: string, lim: CallLimits = DEFAULT_LIMITS): void {
  for (const [name, v] of raw) {
    // Counts first (no scan of the elements), then the scans.
    if (name === 'by') checkBy(v, call, lim);
    if (name === 'minutes' && Array.isArray(v) && v.length > lim.maxMinutesBreaks) {
      throw tooMuch(`argument 'minutes' has ${v.length} breaks; the limit is ${lim.maxMinutesBreaks}.`, call);
    }
    if (name === 'ids' && Array.isArray(v) && v.length > lim.maxIds) {
      throw tooMuch(`argument 'ids' has ${v.length} cell ids; the limit is ${lim.maxIds}. Query by country (iso3) or split the ids.`, call, 'TOO_LARGE');
    }
    const depth = nestingDepth(v, lim.maxDepth);
    if (depth > lim.maxDepth) throw tooMuch(`argument '${name}' is nested more than ${lim.maxDepth} levels deep (the limit).`, call);
    if (name === 'wkt' || name === 'domains') checkShapes(name, v, call, lim);
  }
}

function checkBy(v: unknown, call: string, lim: CallLimits): void {
  if (Array.isArray(v)) {
    if (v.length > lim.maxByCodes) throw tooMuch(`argument 'by' has ${v.length} codes; the limit is ${lim.maxByCodes}.`, call);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > lim.maxByCodes) throw tooMuch(`argument 'by' has ${entries.length} codes; the limit is ${lim.maxByCodes}.`, call);
  for (const [code, xs] of entries) {
    if (Array.isArray(xs) && xs.length > lim.maxByValues) {
      throw tooMuch(`argument 'by' has ${xs.length} breaks or classes for ${code}; the limit is ${lim.maxByValues}.`, call);
    }
  }
}

function checkShapes(name: string, v: unknown, call: string, lim: CallLimits): void {
  // The parser's own message and status, before the scan reads 5 MB.
  if (typeof v === 'string' && v.length > MAX_WKT_LENGTH) throw tooMuch(`WKT is longer than ${MAX_WKT_LENGTH} characters.`, call, 'TOO_LARGE');
  let deepest = 0;
  const domains = name === 'domains';
  const maxShapes = domains ? lim.maxDomains : lim.maxShapes;
  const maxVertices = domains ? lim.maxDomainVertices : lim.maxVertices;
  const { vertices, shapes: counted, edgeCells } = shapeVertices(v, (d) => (deepest = Math.max(deepest, d)), maxShapes);
  const shapes = counted > maxShapes ? countShapes(v) : counted;
  if (deepest > lim.maxWktDepth) throw tooMuch(`argument '${name}' has WKT nested ${deepest} levels deep; the limit is ${lim.maxWktDepth}.`, call);
  if (shapes > maxShapes) {
    throw tooMuch(domains
      ? `argument 'domains' has ${shapes} shapes (features or WKT entries, collections by member); the limit is ${maxShapes}. Split the call.`
      : `argument '${name}' has ${shapes} shapes, each summarised on its own; the limit is ${maxShapes}. Split the call, or join points into one MULTIPOINT (one summary).`, call);
  }
  if (edgeCells > lim.maxEdgeCells) {
    throw tooMuch(`argument '${name}' has polygon edges crossing ${Math.round(edgeCells)} grid cells in all (a zigzag or a very detailed outline); the limit is ${lim.maxEdgeCells}. Simplify the shapes (e.g. with mapshaper or ST_Simplify).`, call);
  }
  if (vertices > maxVertices) {
    throw tooMuch(`argument '${name}' has ${vertices} vertices; the limit is ${maxVertices}. Simplify the shapes (e.g. with mapshaper or ST_Simplify).`, call, 'TOO_LARGE');
  }
}

/**
 * Checks a method's value before it is printed or stored: rows of a per-cell answer and
 * bytes of the value as JSON.
 * @param value the value (R/.val)
 * @param bytes its size as JSON, when already known (else measured here)
 * @param perCell true for a per-cell answer (`collapse = FALSE`)
 * @throws IndapiError BAD_ARGUMENT that points to `format = "csv"` or a smaller area, `detail.call` = `call`
 */
export function checkValueLimits(value: unknown, call: string, perCell: boolean, bytes?: number, lim: CallLimits = DEFAULT_LIMITS): void {
  const rows = Array.isArray(value) ? value.length : value && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data) ? (value as { data: unknown[] }).data.length : 0;
  if (perCell && rows > lim.maxCellRows) {
    throw tooMuch(
      `The answer has ${rows} cells, more than ${lim.maxCellRows} (the limit of a per-cell answer, collapse = FALSE). Ask for a file (format = "csv" or "tif", fetched from the session's files/) or a smaller area (iso3, wkt, ids).`,
      call,
    );
  }
  const size = bytes ?? valueBytes(value);
  if (size > lim.maxValueBytes) {
    throw tooMuch(
      `The answer is ${(size / 1048576).toFixed(1)} MB as JSON, more than ${lim.maxValueBytes / 1048576} MB (the limit of a session's value). Ask for a file (format = "csv") or a smaller area (iso3, wkt, ids).`,
      call,
    );
  }
}

/** Bytes of a value as compact JSON (UTF-16 code units: an upper bound for ASCII-heavy values is close enough). */
export function valueBytes(value: unknown): number {
  return (JSON.stringify(value ?? null) ?? '').length;
}
