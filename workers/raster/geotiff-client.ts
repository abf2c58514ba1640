/**
 * geotiff.js reads the map's COGs through the bundle's one range reader
 * (`src/core/io/fetch-source.ts`, the same as the engine's), as a geotiff.js custom client:
 * each `Range: bytes=a-b` request of geotiff.js becomes one `FetchSource.getBytes`, which
 * checks every body against its `Content-Range` and asks again without the HTTP cache when
 * the browser's cache hands back a short one (see `FetchSource.getBytes`).
 */
import { BaseClient, BaseResponse } from 'geotiff';
import { FetchSource } from '../../src/core/io/fetch-source';

/** A finished range answer as geotiff.js reads it: status 206, `Content-Range`, the bytes. */
class RangeAnswer extends BaseResponse {
  constructor(private readonly data: ArrayBuffer, private readonly contentRange: string) {
    super();
  }
  override get status(): number {
    return 206;
  }
  override getHeader(name: string): string | undefined {
    return name.toLowerCase() === 'content-range' ? this.contentRange : undefined;
  }
  override async getData(): Promise<ArrayBuffer> {
    return this.data;
  }
}

/**
 * A geotiff.js client for one URL over {@link FetchSource}. Only single ranges are asked
 * (geotiff.js with `maxRanges` 0, its default).
 * @throws IndapiError from `FetchSource.getBytes`; Error when geotiff.js asks without a single `bytes=a-b` range
 */
export class RangeClient extends BaseClient {
  private readonly source: FetchSource;

  /** @param url absolute URL of the COG */
  constructor(url: string) {
    super(url);
    this.source = new FetchSource(url);
  }

  override async request(options: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<BaseResponse> {
    const range = Object.entries(options.headers ?? {}).find(([k]) => k.toLowerCase() === 'range')?.[1] ?? '';
    const m = /^bytes=(\d+)-(\d+)$/.exec(range.trim());
    if (!m) throw new Error(`geotiff.js asked for ${range || 'a whole file'}; the map reads single byte ranges only.`);
    const start = Number(m[1]);
    const data = await this.source.getBytes(start, Number(m[2]) - start + 1, options.signal);
    // the total size is not needed by geotiff.js beyond its optional `fileSize`
    return new RangeAnswer(data, `bytes ${start}-${start + data.byteLength - 1}/*`);
  }
}
