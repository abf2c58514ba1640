/**
 * One whole-region query (up to 5 continuous indicators by ADM1, cold) on a bundle, in this
 * process; prints rows, time and RSS as JSON. Used by bench/window-mem.sh to compare the memory
 * of the same table ingested on two windows (issue 15 item 1).
 *
 *   npx tsx bench/window-query.ts <bundle folder>
 */
import { createNodeEngine } from '../src/node/engine';

async function main(dir: string): Promise<void> {
  const e = createNodeEngine(dir);
  const vars = (await e.catalog()).filter((r) => r.type === 'continuous' && String(r.published) !== 'FALSE').map((r) => r.varCode).slice(0, 5);
  const t = performance.now();
  const rows = (await e.getLayer({ var: vars, by: ['ADM1_NAME_ALT'] })) as unknown[];
  console.log(JSON.stringify({ vars, rows: rows.length, ms: Math.round(performance.now() - t), rssMB: Math.round(process.memoryUsage().rss / 2 ** 20) }));
}

void main(process.argv[2]);
