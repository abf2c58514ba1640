/**
 * Files worker (Comlink): builds a download package with the core's `buildPackage` (the
 * contract's use case: the method's package kind from its spec, the result on screen sent by
 * the page or else the query the format needs, then its writers) and packs it with `zipFiles`, reporting
 * progress in percent and cancellable by call id. SVG-to-PNG for plot/hist is delegated
 * to the caller (the page renders SVG with its own fonts).
 */
import { expose, proxy, transfer } from 'comlink';
import type { Engine } from '../src/core/api';
import { IndapiError } from '../src/core/errors';
import { zipFiles } from '../src/core/formats';
import { buildPackage } from '../src/core/package';
import { methodPackage } from '../src/contract/methods';
import type { Runtime } from '../src/core/runtime';
import { createWorkerRuntime } from './engine-factory';
import type { BuildOutcome, BuildRequest, BuildResult, EngineQuery, FilesWorkerApi } from './protocol/files';
import { bindCalls, engineOf, type EngineCall, type EngineResult } from './protocol/engine';
import { fromWireError } from './protocol/outcome';
import { CallRegistry } from './calls';

let rt: Runtime | null = null;
let dataBase = '';
const calls = new CallRegistry();

const api: FilesWorkerApi = {
  /** Sets the bundle root URL (ending in "/"). */
  init(base: string) {
    dataBase = base;
    // one runtime (src/core/runtime): the bundle reader, writers (outlines read when a plot or GeoPackage needs them) and version;
    // its engine answers only a build sent without the page's engine (`query`): the Download panel always sends it
    rt = createWorkerRuntime(base, undefined, undefined, 16 * 1024 * 1024);
  },

  /** Builds the files and the ZIP of a request (the ZIP's buffer is transferred, not copied). */
  async build(id: number, req: BuildRequest, rasterize: (svg: string) => Promise<Uint8Array>, onProgress?: (done: number, total: number) => void, query?: EngineQuery): Promise<BuildOutcome> {
    const out = await calls.run(id, (signal) => buildZip(req, rasterize, signal, (p) => void onProgress?.(Math.round(p), 100), query));
    return out.ok ? transfer(out, [out.value.zip.buffer as ArrayBuffer]) : out;
  },

  /** Aborts build `id`. */
  cancel(id: number) { calls.cancel(id); },
  /** Bundle root in use. */
  base() { return dataBase; },
};

/**
 * The package of a request (the contract's use case, src/core/package: the same query, writers
 * and value as the API) and its ZIP; `step` gets the progress in percent.
 * @throws IndapiError as buildPackage and zipFiles (ABORTED when `signal` aborts)
 */
async function buildZip(req: BuildRequest, rasterize: (svg: string) => Promise<Uint8Array>, signal: AbortSignal, step: (pct: number) => void, query?: EngineQuery): Promise<BuildResult> {
  if (!rt) throw new IndapiError('INTERNAL', 'files worker not initialised');
  const t0 = performance.now();
  // PNG is drawn by the page (its fonts): the call's renderer
  // the method's package kind and typed value (its spec), and the result on screen when sent;
  // what the package still needs (cells of a map format) is asked of the page's engine
  const out = await buildPackage(query ? pageEngine(query) : rt.engine, {
    ...methodPackage(req.method, req.args), result: req.result, format: req.format, requestUrl: req.requestUrl, layout: req.layout,
    extra: { rasterize: (svg) => rasterize(svg), shapes: req.shapes }, write: rt.genFile,
  }, { signal, onProgress: (d, t) => step(t ? (d / t) * 75 : 0) });
  step(75);
  const t1 = performance.now();
  const zip = await zipFiles(out.files, { signal, onProgress: (d, t) => step(75 + (t ? (d / t) * 25 : 0)) });
  step(100);
  const timings = { packageMs: t1 - t0, zipMs: performance.now() - t1 };
  return {
    zip, zipName: out.zipName,
    files: out.files.map((f) => ({ name: f.name, mediaType: f.mediaType, bytes: f.bytes.byteLength })),
    graphics: out.graphics.map((g) => ({ svg: g.svg, png: g.png })),
    timings,
  };
}

/** The page's engine over its {@link EngineQuery}: each call crosses to the engine worker (its cache, its reads). */
function pageEngine(query: EngineQuery): Engine {
  const call: EngineCall = async (method, args, opts) => {
    const out = await query(method, args, opts?.onProgress ? proxy(opts.onProgress) : undefined);
    if (!out.ok) throw fromWireError(out.error);
    return out.value as EngineResult<typeof method>;
  };
  return engineOf(bindCalls(call));
}

expose(api);
