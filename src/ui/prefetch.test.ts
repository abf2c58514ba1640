import { afterEach, describe, expect, test, vi } from 'vitest';
import { prefetchedJson, prefetchJson } from './prefetch';

afterEach(() => vi.unstubAllGlobals());

describe('prefetchJson', () => {
  test('fetches a URL once and hands the parsed JSON to a later caller', async () => {
    const fetchMock = vi.fn(async () => new Response('{"type":"FeatureCollection","features":[]}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const url = 'http://fixture.test/data/basemap/countries.geojson';
    expect(prefetchedJson(url)).toBeUndefined();
    prefetchJson(url);
    prefetchJson(url);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(prefetchedJson(url)).resolves.toEqual({ type: 'FeatureCollection', features: [] });
  });

  test('an HTTP error is kept as a rejection naming the status and URL, never thrown at the start', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('missing', { status: 404 })));
    const url = 'http://fixture.test/data/basemap/missing.geojson';
    expect(() => prefetchJson(url)).not.toThrow();
    await expect(prefetchedJson(url)).rejects.toThrow(`HTTP 404 for ${url}`);
  });
});
