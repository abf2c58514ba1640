/** API panel: the current query as curl, R httr and session calls, runnable against the in-page service. */
import { useState } from 'react';
import { curlSnippet, endpoint, httrSnippet, sessionSnippet } from './api-snippets';
import type { QuerySpec } from './common';

/** API base of this page (the service worker or the Node server answer it). */
export const API_BASE = new URL('ocpu', document.baseURI).href;

function Snippet({ title, text }: { title: string; text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="snippet">
      <div className="row space"><h3>{title}</h3>
        <button type="button" onClick={async () => { try { await navigator.clipboard.writeText(text); setCopied(true); setTimeout(() => setCopied(false), 1500); } catch { setCopied(false); } }} aria-label={`Copy ${title}`}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <pre tabIndex={0}><code>{text}</code></pre>
    </div>
  );
}

/** The panel. */
export function ApiPanel({ query }: { query: QuerySpec | null }) {
  const [out, setOut] = useState<{ status: number; text: string; session?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  if (!query) return (
    <section aria-labelledby="api-h"><h2 id="api-h">API</h2>
      <p className="muted">Run a summary, an area query or a comparison: its equivalent HTTP call appears here.</p>
      <p className="small">Service base: <code>{API_BASE}</code>. Method list: <a href={`${API_BASE}/library/indapi3/info/`}>info</a>.</p>
    </section>
  );
  const run = async () => {
    setBusy(true); setErr(null);
    try {
      const body = JSON.stringify(query.args);
      const headers = { 'Content-Type': 'application/json' };
      const r = await fetch(endpoint(API_BASE, query.method, true), { method: 'POST', headers, body });
      const text = await r.text();
      const s = await fetch(endpoint(API_BASE, query.method, false), { method: 'POST', headers, body });
      setOut({ status: r.status, text: text.length > 4000 ? `${text.slice(0, 4000)}\n… (${text.length} characters)` : text, session: await s.text() });
    } catch (e) {
      setErr((e as Error).message);
    } finally { setBusy(false); }
  };
  return (
    <section aria-labelledby="api-h">
      <h2 id="api-h">API</h2>
      <p className="small">{query.label}. The same call works with curl against the Node server (<code>npm start</code>) and, from this page, against the in-browser service worker.</p>
      <Snippet title="curl" text={curlSnippet(API_BASE, query.method, query.args)} />
      <Snippet title="R (httr)" text={httrSnippet(API_BASE, query.method, query.args)} />
      <Snippet title="Session and files" text={sessionSnippet(API_BASE, query.method, query.args)} />
      <button type="button" className="primary" onClick={run} disabled={busy}>{busy ? 'Running…' : 'Run here'}</button>
      {err && <p className="msg error" role="alert">{err}</p>}
      {out && (
        <div data-testid="api-output">
          <h3>Response (HTTP {out.status})</h3>
          <pre tabIndex={0} className="out"><code>{out.text}</code></pre>
          {out.session && <><h3>Session paths</h3><pre tabIndex={0} className="out"><code>{out.session}</code></pre></>}
        </div>
      )}
    </section>
  );
}
