/**
 * Two builds' interactions side by side, interleaved on one machine (a change's effect through the
 * noise of a shared machine): `npx tsx bench/interactions-ab.ts <dist-before> <dist-after> [rounds]
 * [case name substring]`, each build served by its own server (DIST_DIR), the targeted cases of
 * bench/interactions.ts run for A then B, `rounds` times (default 3); prints each case's cold and
 * warm medians per build with the load average.
 */
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../e2e/helpers';
import { launch } from '../e2e/app-helpers';
import { TARGETED, type InteractionTimes } from './interactions';

const [distA, distB, roundsArg, filter] = process.argv.slice(2);
if (!distA || !distB) throw new Error('usage: npx tsx bench/interactions-ab.ts <dist-before> <dist-after> [rounds] [case filter]');
const rounds = Number(roundsArg ?? 3);
const dataDir = path.resolve('public/data');
const a = await startServer({ LOG: '0', DIST_DIR: path.resolve(distA) });
const b = await startServer({ LOG: '0', DIST_DIR: path.resolve(distB) });
const browser = await launch();
const med = (x: number[]) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
try {
  for (const [name, run] of Object.entries(TARGETED).filter(([n]) => !filter || n.includes(filter))) {
    const got: Record<'A' | 'B', InteractionTimes[]> = { A: [], B: [] };
    for (let i = 0; i < rounds; i++) for (const [k, s] of [['A', a], ['B', b]] as const) got[k].push(await run(browser, s.url, { warmRuns: 3, dataDir }));
    const line = (k: 'A' | 'B') => `cold ${med(got[k].map((t) => t.coldMs))} (engine ${med(got[k].map((t) => t.engineColdMs))}) warm ${med(got[k].map((t) => t.warmMedianMs))} (engine ${med(got[k].map((t) => t.engineWarmMs))}); colds ${got[k].map((t) => t.coldMs).join(' ')}`;
    console.log(`${name}\n  A ${line('A')}\n  B ${line('B')}   load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  }
} finally { await browser.close(); await a.stop(); await b.stop(); }
