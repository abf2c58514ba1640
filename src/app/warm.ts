/**
 * The engine's cold start, paid once the first map is up instead of at the first click
 * (issue 26 target 2: table, similar places and summaries under 2 s cold after the first map).
 * A first run used to start the engine worker (its script, the bundle's catalog and manifest)
 * and then read the domain layers of the countries in view; {@link warmEngine} does both in an
 * idle moment after the first map, so the COG blocks sit in the engine's block cache when the
 * person clicks.
 */
import type { CallOptions, Engine } from '../core/api';
import type { GetLayerArgs } from '../core/types';
import type { UrlState } from './url-state';

/** The weight layer every zonal statistic of the default bundle reads (cell area, km²). */
const AREA = 'AREA_TOTAL';
/** The domain read when the link names none (first-level administrative units). */
const DEFAULT_DOMAIN = 'ADM1_NAME_ALT';

/**
 * The query whose reads the first run of the link's panel will need: the cell-area layer by
 * the link's domain (the table's rows, else the summary's first `by`, else ADM1) over the
 * link's countries; null when the link names no country (the whole region is not read ahead:
 * too many bytes for a guess) or the bundle lacks those layers.
 */
export function warmQuery(s: UrlState, codes: ReadonlySet<string>): GetLayerArgs | null {
  if (!s.iso.length) return null;
  const domain = [s.panel === 'table' ? s.tr : null, s.by[0], DEFAULT_DOMAIN].find((c): c is string => !!c && codes.has(c));
  if (!domain || !codes.has(AREA)) return null;
  return { var: [AREA], iso3: [...s.iso], by: [domain] };
}

/**
 * Starts `engine` (its worker, the catalog) and reads {@link warmQuery}'s layers into its block
 * cache. Failures are ignored (the person's own run reports them); rejects only when `opts.signal`
 * aborts.
 */
export async function warmEngine(engine: Engine, s: UrlState, opts: CallOptions = {}): Promise<void> {
  const records = await engine.catalog(opts).catch(() => []);
  const q = warmQuery(s, new Set(records.map((r) => r.varCode)));
  if (q) await engine.getLayer(q, opts).catch(() => undefined);
  opts.signal?.throwIfAborted();
}
