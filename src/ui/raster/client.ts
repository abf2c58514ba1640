/**
 * Main-thread client of the map raster worker (workers/raster.worker.ts) that swaps in a new
 * worker once the service worker controls the page.
 *
 * Why: on a first visit the worker starts before the service worker has installed. A
 * dedicated worker created while its page is uncontrolled stays uncontrolled for its whole
 * life, even after `clients.claim()` makes the page controlled (Service Workers spec,
 * "Handle Fetch": a worker client's controller is fixed when it is created). Its COG range
 * reads go straight to the network, so the tiles of a first visit were never cached.
 *
 * How: when `navigator.serviceWorker` fires `controllerchange` and the worker was started
 * uncontrolled, a new worker is started (controlled: it inherits the page's controller). It
 * gets every style registered so far, replayed in order, then reads the COG levels the old
 * worker had read (`loadedLevels`/`warm`), through the service worker, which caches their byte
 * ranges, and takes over the progressive drawing's notes of levels still to read (tiles drawn
 * from a preview), so those tiles are still sharpened after the switch. Calls keep going to
 * the old worker meanwhile; the switch happens when the new one
 * has caught up and no call is running on the old one, which finishes its in-flight calls
 * and is then terminated. The new worker draws the same pixels from the same bytes, so the map
 * needs no redraw and nothing in flight is lost.
 */
import { wrap } from 'comlink';
import type { RasterWorkerApi } from '../../../workers/protocol/raster';

/** A method of the raster worker. */
export type RasterMethod = keyof RasterWorkerApi;
type RasterArgs<M extends RasterMethod> = Parameters<RasterWorkerApi[M]>;
type RasterResult<M extends RasterMethod> = Awaited<ReturnType<RasterWorkerApi[M]>>;
/** The raster worker API as the page calls it: every method of {@link RasterWorkerApi}, returning a Promise. */
export type RasterCalls = { [M in RasterMethod]: (...args: RasterArgs<M>) => Promise<RasterResult<M>> };

/** The raster worker API as the page calls it, and the worker swap. */
export type RasterClient = RasterCalls & {
  /** Starts a new worker now and switches to it once it has caught up (see the module comment). Resolves after the switch. */
  swap(): Promise<void>;
  /** How many times the worker was swapped (0 before the first swap). */
  readonly generation: number;
  /**
   * Resolves once the worker taking the calls is controlled by the service worker and has read
   * again, through it, the levels the uncontrolled one had read (their ranges are then cached):
   * at once when the page was controlled from the start (or `container` is null), else after
   * the swap that the first `controllerchange` starts. Part of the app's "available offline" signal.
   */
  readonly controlled: Promise<void>;
};

/** Options of {@link rasterClient}. */
export interface RasterClientOptions {
  /** Starts a raster worker (e.g. `new Worker(new URL('.../raster.worker.ts', import.meta.url), { type: 'module' })`). */
  start: () => Worker;
  /** Bundle root URL ending in "/", passed to the worker's `init`. */
  dataBase: string;
  /**
   * The service worker container to watch (default `navigator.serviceWorker`); when the page
   * is not controlled at start, the first `controllerchange` swaps the worker. null: never swap by itself.
   */
  container?: Pick<ServiceWorkerContainer, 'controller' | 'addEventListener'> | null;
  /** Longest wait (ms) for the old worker to go idle before each catch-up round; default 5000. */
  idleWaitMs?: number;
}

/**
 * Every method of the worker (the type check asks for each one of {@link RasterWorkerApi}):
 * `style` calls register state in the worker, replayed on a new worker in call order (keyed by
 * their first argument); the others are forwarded.
 */
const METHODS: Record<RasterMethod, 'style' | 'call'> = {
  init: 'call', styleCog: 'style', styleCogChange: 'style', styleCells: 'style', prefetch: 'call', refined: 'call', tile: 'call', renderView: 'call', cellInfo: 'call',
  colorAt: 'call', classTable: 'call', loadedLevels: 'call', warm: 'call', refiningLevels: 'call', noteRefining: 'call',
};
const METHOD_NAMES = Object.keys(METHODS).filter((m): m is RasterMethod => m in METHODS);

/** One worker: its calls running (`pending`), tile calls made so far (`tiles`), waiters for idle. */
interface Slot { worker: Worker; remote: RasterCalls; pending: number; tiles: number; onIdle: Array<() => void> }
/** A style call: its order, key and method, and how to make it again on another worker. */
interface StyleCall { seq: number; key: string; method: RasterMethod; replay: (r: RasterCalls) => Promise<unknown> }

/** The tuples not in `seen` (by their values joined with "/"), which are then added to it: each is handed over once. */
function unseen<T extends Array<string | number>>(seen: Set<string>, items: T[]): T[] {
  const out = items.filter((t) => !seen.has(t.join('/')));
  for (const t of out) seen.add(t.join('/'));
  return out;
}

/**
 * Creates the client and starts its first worker.
 * @param o see {@link RasterClientOptions}
 */
export function rasterClient(o: RasterClientOptions): RasterClient {
  const spawn = (): Slot => {
    const worker = o.start();
    const remote: RasterCalls = wrap<RasterWorkerApi>(worker);
    void remote.init(o.dataBase);
    return { worker, remote, pending: 0, tiles: 0, onIdle: [] };
  };
  let cur = spawn();
  let generation = 0;
  let seq = 0;
  /** The latest style call of each key (the first argument), in call order by `seq`. */
  const styles = new Map<string, StyleCall>();
  let swapping: Promise<void> | null = null;

  const settled = (s: Slot) => {
    if (--s.pending === 0) for (const f of s.onIdle.splice(0)) f();
  };
  const idle = (s: Slot, ms: number) => (s.pending === 0 ? Promise.resolve() : new Promise<void>((res) => {
    const t = setTimeout(res, ms);
    s.onIdle.push(() => { clearTimeout(t); res(); });
  }));

  function call<M extends RasterMethod>(method: M, args: RasterArgs<M>): Promise<RasterResult<M>> {
    if (METHODS[method] === 'style') {
      const key = String(args[0]);
      styles.delete(key);
      styles.set(key, { seq: ++seq, key, method, replay: (r) => r[method](...args) });
      // a per-cell result is large: keep the latest few, as the worker does
      const cells = [...styles.values()].filter((s) => s.method === 'styleCells');
      if (cells.length > 2) styles.delete(cells[0].key);
    }
    const s = cur;
    s.pending++;
    if (method === 'tile') s.tiles++;
    const p = s.remote[method](...args);
    p.then(() => settled(s), () => settled(s));
    return p;
  }

  async function doSwap(): Promise<void> {
    const old = cur;
    const next = spawn();
    const waitMs = o.idleWaitMs ?? 5000;
    let replayed = 0;
    const warmed = new Set<string>();
    const handed = new Set<string>();
    for (let round = 0; round < 8; round++) {
      await idle(old, waitMs);
      for (const st of [...styles.values()].filter((x) => x.seq > replayed).sort((a, b) => a.seq - b.seq)) {
        replayed = Math.max(replayed, st.seq);
        await st.replay(next.remote).catch(() => undefined);
      }
      const levels = unseen(warmed, await old.remote.loadedLevels().catch(() => []));
      if (levels.length) await next.remote.warm(levels).catch(() => undefined);
      // tiles drawn from a preview on the old worker: the new one reads their levels when the page asks `refined`
      const tilesBefore = old.tiles;
      const notes = unseen(handed, await old.remote.refiningLevels().catch(() => []));
      if (notes.length) await next.remote.noteRefining(notes).catch(() => undefined);
      // caught up when no style or tile call arrived and nothing runs on the old worker: switch now (no await in between)
      if (![...styles.values()].some((x) => x.seq > replayed) && old.pending === 0 && old.tiles === tilesBefore) break;
    }
    cur = next;
    generation++;
    // the old worker finishes what it was asked, then goes
    const retire = () => { if (old.pending === 0) old.worker.terminate(); else old.onIdle.push(retire); };
    retire();
  }

  const swap = () => (swapping ??= doSwap().finally(() => { swapping = null; }));
  const sw = o.container === undefined ? (typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined) : o.container;
  let controlled: Promise<void> = Promise.resolve();
  if (sw && !sw.controller) {
    controlled = new Promise<void>((res) => {
      sw.addEventListener('controllerchange', () => void swap().then(res), { once: true });
    });
  }
  // (the compiler checks an entry against RasterCalls[M] when reading that type, not when building it: one assertion on the finished record)
  const entry = <M extends RasterMethod>(m: M) => [m, (...a: RasterArgs<M>) => call(m, a)] as const;
  const calls = Object.fromEntries(METHOD_NAMES.map(entry)) as RasterCalls;
  return { ...calls, swap, get generation() { return generation; }, controlled };
}
