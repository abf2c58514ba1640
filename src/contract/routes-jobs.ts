/**
 * Jobs' routes (`jobs.ts`): `GET tmp/<key>/status` answers the job's state as JSON
 * (`{ state, progress, message }`, 200); a key with a session and no job record (a
 * synchronous call, or a job finished on a node that has forgotten it) answers `done`.
 * `DELETE tmp/<key>/` cancels a queued or running job (200 with the state `cancelled`), is
 * a no-op on a failed or cancelled one (200, its state), and answers 409 for a finished
 * job (its session stays; sessions expire on their own). Unknown keys answer 404.
 */
import type { Context, Hono } from 'hono';
import { errorResponse, type RouteContext } from './http';
import type { JobStatus } from './jobs';
import { isSessionKey } from './sessions';

function statusJson(s: JobStatus): Response {
  return new Response(JSON.stringify(s, null, 2) + '\n', { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
}

/** Adds `tmp/<key>/status` and `DELETE tmp/<key>/`. */
export function addJobRoutes(app: Hono, rc: RouteContext): void {
  const statusOfKey = async (c: Context, key: string): Promise<JobStatus | undefined> => {
    const s = await rc.jobs.status(key, c.req.raw.signal);
    if (s) return s;
    const meta = await rc.store.get(key, c.req.raw.signal);
    return meta ? { state: 'done', progress: 1, message: 'Done: the session is ready.' } : undefined;
  };
  app.get('/tmp/:key/status', async (c) => {
    const key = c.req.param('key');
    const s = isSessionKey(key) ? await statusOfKey(c, key) : undefined;
    return s ? statusJson(s) : errorResponse(404, `Session not found: ${key}`);
  });
  const cancel = async (c: Context) => {
    const key = c.req.param('key')!;
    if (!isSessionKey(key)) return errorResponse(404, `Session not found: ${key}`);
    const s = (await rc.jobs.cancel(key, c.req.raw.signal)) ?? (await statusOfKey(c, key));
    if (!s) return errorResponse(404, `Session not found: ${key}`);
    if (s.state === 'done') return errorResponse(409, `Session ${key} is finished and cannot be cancelled; it expires on its own.`);
    return statusJson(s);
  };
  app.delete('/tmp/:key/', cancel);
  app.delete('/tmp/:key', cancel);
}
