/**
 * The bundle's one decode of stored samples into values, by the core COG reader (./store.ts)
 * for the engine and for the map's raster worker (workers/raster/layers.ts), so the map, the
 * engine and the file writers read the same numbers:
 *
 * - no data (./nodata.ts: NaN or the file's GDAL_NODATA at the sample's precision) -> NaN;
 * - a band with GDAL scale/offset metadata (TIFF tag 42112 GDAL_METADATA,
 *   `<Item name="SCALE" sample="0" role="scale">0.01</Item>` and `role="offset"`; GDAL's
 *   unscaled value is `stored * scale + offset`, https://gdal.org/user/raster_data_model.html)
 *   whose scale is 10^-k (k = 1..9) and offset 0 -> `stored / 10^k`. This division is correctly
 *   rounded (IEEE 754), so an integer n = x * 10^k stored by the table ingest decodes to the
 *   double nearest the decimal text x, the number R's `read.csv`/`fread` and `parseFloat` read;
 *   `n * 0.1` would not (0.1 is not exact: 3 * 0.1 = 0.30000000000000004);
 * - another scale or offset -> `stored * scale + offset` (GDAL's rule);
 * - else the stored value.
 */
import { noDataTest } from './nodata';

/** A band's GDAL scale and offset (both null when the file has none). */
export interface BandScale {
  /** GDAL scale (`role="scale"`), or null. */
  scale: number | null;
  /** GDAL offset (`role="offset"`), or null. */
  offset: number | null;
}

/** What decoding a file's samples needs. */
export interface DecodeSpec extends BandScale {
  /** GDAL_NODATA value, or null. */
  noData: number | null;
  /** The samples are Float32 (no-data compared at Float32 precision). */
  float32: boolean;
}

/** Largest k of a decimal scale 10^-k (10^9 and every smaller power of ten are exact doubles). */
export const MAX_DECIMALS = 9;

/**
 * Reads the band-0 scale and offset from the text of a GDAL_METADATA tag (GDAL's
 * `<GDALMetadata><Item name=".." sample="0" role="scale">..</Item>...`): items with
 * `role="scale"`/`role="offset"` (or named SCALE/OFFSET) of sample 0.
 * @param xml the tag's text (null or '' when the file has none)
 */
export function parseGdalScale(xml: string | null): BandScale {
  const out: BandScale = { scale: null, offset: null };
  if (!xml) return out;
  for (const m of xml.matchAll(/<Item\b([^>]*)>([^<]*)<\/Item>/g)) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1])?.[1];
    if (attr('sample') !== '0') continue;
    const role = (attr('role') ?? attr('name') ?? '').toLowerCase();
    const v = Number(m[2].trim());
    if (!Number.isFinite(v) || m[2].trim() === '') continue;
    if (role === 'scale') out.scale = v;
    else if (role === 'offset') out.offset = v;
  }
  return out;
}

/**
 * The text of a GDAL_METADATA tag giving band 0 a scale and offset, as GDAL writes it.
 * @param scale GDAL scale (e.g. 0.01)
 * @param offset GDAL offset (0 for the ingest's decimal scales)
 */
export function gdalScaleXml(scale: number, offset: number): string {
  return `<GDALMetadata>\n  <Item name="OFFSET" sample="0" role="offset">${offset}</Item>\n  <Item name="SCALE" sample="0" role="scale">${scale}</Item>\n</GDALMetadata>\n`;
}

/**
 * The k of a decimal scale: 10^k when `scale` is 10^-k (k = 1..9, to 1e-12 relative) and the
 * offset is 0 or absent; else 0 (not a decimal scale).
 */
export function decimalDivisor(s: BandScale): number {
  if (s.scale === null || (s.offset !== null && s.offset !== 0)) return 0;
  for (let k = 1; k <= MAX_DECIMALS; k++) {
    const p = 10 ** k;
    if (Math.abs(s.scale * p - 1) < 1e-12) return p;
  }
  return 0;
}

/** True when samples of `s` need more than a no-data check (a scale or an offset). */
export function isScaled(s: BandScale): boolean {
  return (s.scale !== null && s.scale !== 1) || (s.offset !== null && s.offset !== 0);
}

/**
 * The decoder of one file's samples: stored sample -> value (NaN for no data); see the module
 * comment for the rule.
 */
export function sampleDecoder(spec: DecodeSpec): (stored: number) => number {
  const isNoData = noDataTest(spec.noData, spec.float32);
  if (!isScaled(spec)) return (v) => (isNoData(v) ? NaN : v);
  const div = decimalDivisor(spec);
  if (div) return (v) => (isNoData(v) ? NaN : v / div);
  const scale = spec.scale ?? 1, offset = spec.offset ?? 0;
  return (v) => (isNoData(v) ? NaN : v * scale + offset);
}

/**
 * Decodes `n` samples of `src` from `srcOff` into `dst` from `dstOff` ({@link sampleDecoder}'s rule).
 * @param dec the file's decoder
 */
export function decodeRun(src: ArrayLike<number>, srcOff: number, dst: Float64Array | Float32Array, dstOff: number, n: number, dec: (stored: number) => number): void {
  for (let k = 0; k < n; k++) dst[dstOff + k] = dec(src[srcOff + k]);
}
