/**
 * What the contract's route groups share: plain-text and error answers in OpenCPU's
 * layout, JSON with jsonlite's options, and the {@link RouteContext} each group is built
 * with (see `handler.ts`). Fetch API only.
 */
import type { Context } from 'hono';
import type { Engine } from '../core/api';
import type { JobQueue } from './jobs';
import type { CallLimits } from './limits';
import type { GenFile } from './methods';
import { consoleValue, isTable, tableColumns } from './rprint';
import type { MethodRunner } from './run';
import type { SessionMeta, SessionStore } from './sessions';

/** The library name in every path. */
export const LIBRARY = 'indapi3';

/** Content type of every text answer. */
export const TEXT = 'text/plain; charset=utf-8';

/** A text/plain answer. */
export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'Content-Type': TEXT, ...headers } });
}

/** Longest error message sent (a last guard: calls are already cut by `deparseCall`). */
const MAX_MESSAGE_CHARS = 4000;

/**
 * An error answer: the message and, for a failed call, the call (OpenCPU's error2file
 * layout). Messages longer than 4000 characters are cut (with `...`), so that an error
 * never echoes a large request.
 */
export function errorResponse(status: number, message: string, call?: string, headers: Record<string, string> = {}): Response {
  const msg = message.length > MAX_MESSAGE_CHARS ? message.slice(0, MAX_MESSAGE_CHARS) + '...' : message;
  const body = call ? `${msg}\n\nIn call:\n${call}\n` : `${msg}\n`;
  return text(body, status, headers);
}

/** A readable message for any thrown value. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * JSON of a value with jsonlite's `toJSON` options that OpenCPU passes from the query
 * string: `pretty` (default TRUE) and `dataframe` (`rows` default, `columns`, `values`).
 */
export function jsonText(value: unknown, q: URLSearchParams): string {
  const pretty = q.get('pretty');
  const compact = pretty !== null && /^(false|f|0)$/i.test(pretty);
  let v = value;
  const df = q.get('dataframe');
  if (isTable(v) && (df === 'columns' || df === 'values')) {
    const rows = v;
    const cols = tableColumns(rows);
    v = df === 'columns' ? Object.fromEntries(cols.map((c) => [c, rows.map((r) => r[c] ?? null)])) : rows.map((r) => cols.map((c) => r[c] ?? null));
  }
  return JSON.stringify(v, null, compact ? undefined : 2) + '\n';
}

/** The console of a call (`> call`, the value as R shows it, warnings). */
export function consoleText(s: { source: string; value: unknown; print: string; warnings: string[] }): string {
  const isList = s.value !== null && typeof s.value === 'object' && !Array.isArray(s.value);
  const lines = [`> ${s.source}`, isList ? consoleValue(s.value) : s.print];
  for (const w of s.warnings) lines.push(`Warning message:\n${w}`);
  return lines.join('\n') + '\n';
}

/** Session paths in OpenCPU's order (R/.val, graphics, messages, stdout, warnings, source, console, info, files). */
export function sessionEntries(s: SessionMeta): string[] {
  const out = ['R/.val'];
  for (let i = 1; i <= s.graphics; i++) out.push(`graphics/${i}`);
  if (s.messages.length) out.push('messages');
  out.push('stdout');
  if (s.warnings.length) out.push('warnings');
  out.push('source', 'console', 'info');
  for (const f of s.files) out.push(`files/${f.name}`);
  return out;
}

/** What every route group is built with. */
export interface RouteContext {
  /** Gateway prefix, no trailing slash. */
  prefix: string;
  /** Package version. */
  version: string;
  /** Session store. */
  store: SessionStore;
  /** The engine (resolved on first use). */
  engine(): Promise<Engine>;
  /** The file writers (resolved on first use). */
  genFile(): Promise<GenFile | undefined>;
  /** The jobs of this node (calls sent with `Prefer: respond-async`). */
  jobs: JobQueue;
  /** Runs heavy methods elsewhere (worker threads), when set. */
  runner?: MethodRunner;
  /** Limits of a call. */
  limits: CallLimits;
  /** Body size limit, bytes. */
  maxBodyBytes: number;
  /** Longest a method may run, ms. */
  timeoutMs: number;
  /** Clock. */
  now(): Date;
  /** Extra lines for a session's `info`. */
  runtimeInfo?: () => string | Promise<string>;
  /** The public origin (scheme, host, port, and a path prefix if any) for links and `Location`. */
  origin(c: Context): string;
  /** Absolute URL of a path under the prefix. */
  abs(c: Context, path: string): string;
  /** 302 (or `status`) to a path under the prefix. */
  redirect(c: Context, path: string, status?: number): Response;
  /** 404 with OpenCPU's message. */
  notFound(c: Context, msg?: string): Response;
  /** True when the `:lib` path parameter is this library. */
  lib(c: Context): boolean;
  /** 404 for another library. */
  noLib(c: Context): Response;
}
