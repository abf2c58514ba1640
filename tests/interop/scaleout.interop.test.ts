/**
 * Several nodes behind haproxy, two of them killed under load (README "Run on several
 * machines"): with `SESSION_STORE=redis://` every session that got a 201 is then served
 * whole and byte-identical by the survivor, directly and through haproxy, and no client saw
 * an error but 503. The same run with disk sessions loses sessions: the test sees the problem.
 * redis-server and haproxy are Debian's, started here with explicit arguments, loopback only.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRedis, type TestRedis } from '../sessions/redis-server.fixture';
import { killNode, runLoad, scaleoutRoot, startHaproxy, startNode, verifySessions, type Node } from '../sessions/scaleout.fixture';

let redis: TestRedis;
const procs: Array<{ kill(sig?: NodeJS.Signals): boolean }> = [];
const roots: string[] = [];
beforeAll(async () => {
  redis = await startRedis(['--maxmemory', '256mb', '--maxmemory-policy', 'volatile-ttl']);
});
afterAll(async () => {
  for (const p of procs) p.kill('SIGKILL');
  await redis?.stop();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Three nodes, haproxy, the load for `durationMs`, kills at 1/3 and 2/3; then checks against the survivor. */
async function scenario(env: Record<string, string>, durationMs: number) {
  const root = scaleoutRoot();
  roots.push(root);
  const nodes: Node[] = await Promise.all([0, 1, 2].map((i) => startNode(env, root, i)));
  procs.push(...nodes.map((n) => n.proc));
  const lb = await startHaproxy(nodes, root);
  procs.push(lb.proc);
  let kills = 0;
  const fig = await runLoad(lb.url, durationMs, 6, async (t) => {
    if (kills === 0 && t >= durationMs / 3) { kills++; await killNode(nodes[0]); }
    if (kills === 1 && t >= (2 * durationMs) / 3) { kills++; await killNode(nodes[1]); }
  });
  // haproxy has marked the killed nodes down (2 failed checks of 300 ms) before the checks
  await new Promise((r) => setTimeout(r, 1500));
  const direct = await verifySessions(nodes[2].url, fig.sessions);
  const viaLb = await verifySessions(lb.url, fig.sessions);
  const sameBoth = [...direct.hashes].filter(([k, h]) => viaLb.hashes.has(k) && viaLb.hashes.get(k) !== h).length;
  const clientErrors = Object.entries(fig.statuses).filter(([s]) => !/^(2|3)\d\d$/.test(s) && s !== '503').reduce((n, [, c]) => n + c, 0) + fig.noAnswer;
  const byNode = fig.sessions.reduce<Record<string, number>>((m, s) => ({ ...m, [s.node]: (m[s.node] ?? 0) + 1 }), {});
  const line = `${env.SESSION_STORE ? 'redis' : 'disk'}: ${fig.calls} calls, ${fig.sessions.length} sessions (made by ${JSON.stringify(byNode)}), ${kills} kills, statuses ${JSON.stringify(fig.statuses)}, no answer ${fig.noAnswer}, answers cut mid-body by a kill ${fig.cut}, client errors (not 2xx/3xx/503) ${clientErrors}; afterwards ${direct.checked} parts checked on the survivor: ${direct.missing.length} missing, ${direct.differ.length} different; through haproxy: ${viaLb.missing.length} missing, ${viaLb.differ.length} different, ${sameBoth} differ between the two`;
  console.log(line);
  for (const p of [lb.proc, ...nodes.map((n) => n.proc)]) p.kill('SIGKILL');
  return { fig, kills, direct, viaLb, sameBoth, clientErrors, byNode };
}

test('redis sessions: two of three nodes killed under load lose nothing', async () => {
  const r = await scenario({ SESSION_STORE: redis.url }, 24_000);
  expect(r.kills).toBe(2);
  expect(r.fig.sessions.length).toBeGreaterThan(30);
  expect(Object.keys(r.byNode).sort()).toEqual(['n0', 'n1', 'n2']); // the killed nodes made sessions too
  expect(r.clientErrors).toBe(0);
  // only an answer already being sent when its node died can be cut: at most one per client per kill
  expect(r.fig.cut).toBeLessThanOrEqual(6 * 2);
  expect(r.direct.missing).toEqual([]);
  expect(r.direct.differ).toEqual([]);
  expect(r.viaLb.missing).toEqual([]);
  expect(r.viaLb.differ).toEqual([]);
  expect(r.sameBoth).toBe(0);
}, 240_000);

test('disk sessions: the same run loses sessions (the test sees the problem)', async () => {
  const r = await scenario({}, 8_000);
  expect(r.kills).toBe(2);
  expect(r.fig.sessions.length).toBeGreaterThan(10);
  // sessions made on more than one node, so on a killed one too (on a loaded machine the first node
  // killed may not have passed its health check yet, so which ones is not fixed)
  expect(Object.keys(r.byNode).length).toBeGreaterThanOrEqual(2);
  expect(r.direct.missing.length + (r.fig.statuses['404'] ?? 0)).toBeGreaterThan(0);
}, 240_000);
