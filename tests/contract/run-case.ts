/**
 * Runs one case of `cases.ts` through a transport (Node fetch, or fetch inside a page
 * served by the service worker) and checks the answer with Vitest's `expect`.
 */
import { expect } from 'vitest';
import type { CaseRequest, CaseResponse, ContractCase } from './cases';

/** A request as a transport sends it (placeholders resolved). */
export interface SendRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | { fill: number } | { base64: string };
  /** 'manual': report redirects as they are; 'follow': follow them. */
  redirect: 'manual' | 'follow';
}

/** A transport. `seesRedirects` is false where a manual redirect is opaque (fetch in a page). */
export interface Transport {
  origin: string;
  seesRedirects: boolean;
  send(r: SendRequest): Promise<CaseResponse>;
}

const dec = new TextDecoder();

function fill(s: string, vars: Record<string, string>): string {
  return s.replace(/\{(key|origin)\}/g, (_, k: string) => vars[k] ?? `{${k}}`);
}

async function sendCase(t: Transport, r: CaseRequest, vars: Record<string, string>, redirect: 'manual' | 'follow'): Promise<CaseResponse> {
  let path = fill(r.path, vars);
  const fileRef = /\{file:([^}]+)\}/.exec(path);
  if (fileRef) {
    const listing = await t.send({ method: 'GET', url: `${t.origin}/ocpu/tmp/${vars.key}/files/`, headers: {}, redirect: 'follow' });
    const name = dec.decode(listing.body).split('\n').find((n) => n.endsWith(fileRef[1]));
    if (!name) throw new Error(`no file ending in ${fileRef[1]} in session ${vars.key}`);
    path = path.replace(fileRef[0], encodeURIComponent(name));
  }
  return t.send({ method: r.method ?? 'GET', url: t.origin + path, headers: r.headers ?? {}, body: r.body, redirect });
}

/** Runs a case and asserts every expectation. */
export async function runCase(t: Transport, c: ContractCase): Promise<void> {
  const vars: Record<string, string> = { origin: t.origin };
  if (c.session) {
    const s = await sendCase(t, c.session, vars, 'manual');
    expect(s.status, `session call for "${c.name}": ${dec.decode(s.body)}`).toBe(201);
    vars.key = s.headers['x-ocpu-session'];
  }
  if (c.redirect && !t.seesRedirects) {
    const res = await sendCase(t, c.request, vars, 'follow');
    expect(res.redirected, `${c.name}: redirected`).toBe(true);
    expect(res.url).toBe(t.origin + fill(c.redirect, vars));
    return;
  }
  const res = await sendCase(t, c.request, vars, 'manual');
  const text = dec.decode(res.body);
  expect(res.status, `${c.name}: status (body: ${text.slice(0, 300)})`).toBe(c.status);
  if (c.redirect) expect(res.headers.location).toBe(t.origin + fill(c.redirect, vars));
  for (const [h, want] of Object.entries(c.headers ?? {})) {
    const got = res.headers[h.toLowerCase()];
    if (want instanceof RegExp) expect(got, `${c.name}: header ${h}`).toMatch(want);
    else expect(got, `${c.name}: header ${h}`).toBe(fill(want, vars));
  }
  for (const want of c.text ?? []) {
    if (want instanceof RegExp) expect(text, c.name).toMatch(want);
    else expect(text, c.name).toContain(fill(want, vars));
  }
  if (c.exact !== undefined) expect(text, c.name).toBe(fill(c.exact, vars));
  if (c.json) c.json(JSON.parse(text));
  if (c.bytes) c.bytes(res.body);
}

/** A transport over Node's fetch. */
export function nodeTransport(origin: string): Transport {
  return {
    origin,
    seesRedirects: true,
    async send(r) {
      const body = typeof r.body === 'object' ? ('base64' in r.body ? Buffer.from(r.body.base64, 'base64') : 'q=' + 'a'.repeat(r.body.fill)) : r.body;
      const res = await fetch(r.url, { method: r.method, headers: r.headers, body, redirect: r.redirect });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()), url: res.url, redirected: res.redirected };
    },
  };
}
