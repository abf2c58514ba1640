import { afterEach, describe, expect, test } from 'vitest';
import { expose } from 'comlink';
import { rasterClient } from './client';

/** A stand-in raster worker over a MessageChannel (made-up answers naming the worker). */
function fakeWorker(name: string, log: string[], loaded: Array<[string, number]>, gate?: Promise<void>, notes: Array<[string, string, number]> = []): Worker {
  const { port1, port2 } = new MessageChannel();
  const api = {
    init: (base: string) => void log.push(`${name} init ${base}`),
    styleCog: async (key: string) => { log.push(`${name} styleCog ${key}`); return { kind: 'intervals' }; },
    styleCells: async (key: string, _g: unknown, values: Float32Array) => void log.push(`${name} styleCells ${key} ${values.length}`),
    prefetch: async () => undefined,
    tile: async (key: string) => { if (gate) await gate; log.push(`${name} tile ${key}`); return `${name}:${key}`; },
    cellInfo: async () => null,
    colorAt: async () => 0,
    classTable: async () => [],
    loadedLevels: async () => loaded,
    warm: async (levels: Array<[string, number]>) => void log.push(`${name} warm ${levels.map((l) => l.join('/')).join(',')}`),
    refiningLevels: async () => notes,
    noteRefining: async (n: Array<[string, string, number]>) => void log.push(`${name} noteRefining ${n.map((l) => l.join('/')).join(',')}`),
  };
  expose(api, port2 as any);
  ports.push(port1, port2);
  return Object.assign(port1, { terminate: () => { log.push(`${name} terminated`); port1.close(); port2.close(); } }) as unknown as Worker;
}
const ports: MessagePort[] = [];
afterEach(() => { for (const p of ports.splice(0)) p.close(); });

/** A service worker container that is not controlled yet; `take()` fires controllerchange. */
function container() {
  const fns: Array<() => void> = [];
  return { controller: null as unknown, addEventListener: (_t: string, f: () => void) => void fns.push(f), take() { this.controller = {}; for (const f of fns) f(); } };
}

describe('raster worker client', () => {
  test('on controllerchange a new worker gets the styles in order, reads the old one\'s levels and takes its refinement notes, then takes the calls; the old one answers its call in flight, then ends', async () => {
    const log: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => { open = r; });
    let n = 0;
    const sw = container();
    const c = rasterClient({
      start: () => (++n === 1 ? fakeWorker('w1', log, [['ELEVATION', 2], ['ISO3', 0]], gate, [['cog:ELEVATION', 'ELEVATION', 1]]) : fakeWorker(`w${n}`, log, [])),
      dataBase: 'https://x/data/', container: sw as any, idleWaitMs: 20,
    });
    await c.styleCog('cog:ELEVATION', { varCode: 'ELEVATION' } as any);
    await c.styleCells('cells:1', {} as any, new Float32Array(4), {} as any);
    await c.styleCog('cog:SLOPE', { varCode: 'SLOPE' } as any);
    await c.styleCog('cog:ELEVATION', { varCode: 'ELEVATION' } as any); // restyled: replayed after SLOPE
    const inFlight = c.tile('cog:ELEVATION', 3, 4, 3);
    expect(c.generation).toBe(0);
    sw.take();
    setTimeout(open, 60);
    await c.swap();
    expect(c.generation).toBe(1);
    expect(await inFlight).toBe('w1:cog:ELEVATION');
    expect(await c.tile('cog:SLOPE', 3, 4, 3)).toBe('w2:cog:SLOPE');
    expect(log.filter((l) => l.startsWith('w2'))).toEqual([
      'w2 init https://x/data/', 'w2 styleCells cells:1 4', 'w2 styleCog cog:SLOPE', 'w2 styleCog cog:ELEVATION', 'w2 warm ELEVATION/2,ISO3/0', 'w2 noteRefining cog:ELEVATION/ELEVATION/1', 'w2 tile cog:SLOPE',
    ]);
    await expect.poll(() => log.includes('w1 terminated')).toBe(true);
    expect(log.indexOf('w1 terminated')).toBeGreaterThan(log.indexOf('w1 tile cog:ELEVATION'));
  });

  test('a style registered while the swap runs reaches the new worker before it takes over', async () => {
    const log: string[] = [];
    let n = 0;
    const sw = container();
    const c = rasterClient({ start: () => fakeWorker(`w${++n}`, log, [['A', 1]]), dataBase: 'd/', container: sw as any, idleWaitMs: 20 });
    await c.styleCog('cog:A', { varCode: 'A' } as any);
    sw.take();
    const late = c.styleCog('cog:B', { varCode: 'B' } as any); // goes to w1 (still current), and is replayed on w2
    await c.swap();
    await late;
    expect(log).toContain('w1 styleCog cog:B');
    expect(log).toContain('w2 styleCog cog:B');
    expect(await c.tile('cog:B', 0, 0, 0)).toBe('w2:cog:B');
  });

  test('a page controlled from the start keeps its one worker', async () => {
    const log: string[] = [];
    let n = 0;
    const sw = { controller: {}, addEventListener: () => { throw new Error('not expected'); } };
    const c = rasterClient({ start: () => fakeWorker(`w${++n}`, log, []), dataBase: 'd/', container: sw as any });
    expect(await c.tile('k', 0, 0, 0)).toBe('w1:k');
    expect(n).toBe(1);
    expect(c.generation).toBe(0);
    await c.controlled; // resolved at once: nothing read outside the service worker
  });

  test('`controlled` resolves only once the new worker has read again what the uncontrolled one had read (the offline signal waits on it)', async () => {
    const log: string[] = [];
    let n = 0;
    const sw = container();
    const c = rasterClient({ start: () => fakeWorker(`w${++n}`, log, n === 1 ? [['ELEVATION', 2]] : []), dataBase: 'd/', container: sw as any, idleWaitMs: 20 });
    await c.styleCog('cog:ELEVATION', { varCode: 'ELEVATION' } as any);
    let done = false;
    void c.controlled.then(() => { done = true; log.push('controlled'); });
    await c.tile('cog:ELEVATION', 0, 0, 0);
    expect(done).toBe(false);
    sw.take();
    await c.controlled;
    expect(log.indexOf('controlled')).toBeGreaterThan(log.indexOf('w2 warm ELEVATION/2'));
    expect(c.generation).toBe(1);
  });
});
