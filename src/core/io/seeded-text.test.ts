import { describe, expect, it } from 'vitest';
import { IndapiError } from '../errors';
import { TextSeeds } from './seeded-text';

/** A fallback loader (the worker's own fetch) that records what it read. */
function fallback() {
  const reads: string[] = [];
  const load = async (rel: string) => {
    reads.push(rel);
    if (rel === 'missing.csv') throw new IndapiError('IO', `Cannot read ${rel}: HTTP 404.`);
    return `fetched ${rel}`;
  };
  return { load, reads };
}

describe('TextSeeds', () => {
  it("answers a seeded file with the page's text, once; other files and later reads go to the fallback", async () => {
    const f = fallback();
    const seeds = new TextSeeds();
    seeds.offer('vi.csv', 'code,label\nELEVATION,Elevation\n');
    const load = seeds.loader(f.load);
    expect(await load('vi.csv')).toBe('code,label\nELEVATION,Elevation\n');
    expect(await load('iso.csv')).toBe('fetched iso.csv');
    expect(await load('vi.csv')).toBe('fetched vi.csv'); // a second read (after a failure) reads afresh
    expect(f.reads).toEqual(['iso.csv', 'vi.csv']);
    expect(seeds.pending()).toEqual([]);
  });

  it('a read of an announced file waits for the offer instead of fetching', async () => {
    const f = fallback();
    const seeds = new TextSeeds();
    seeds.expect('manifest.json');
    const read = seeds.loader(f.load)('manifest.json');
    let done = false;
    void read.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toBe(false);
    seeds.offer('manifest.json', '{"version":"1"}');
    expect(await read).toBe('{"version":"1"}');
    expect(f.reads).toEqual([]);
  });

  it("falls back to its own read when the page's read failed (null), and reports the fallback's failure", async () => {
    const f = fallback();
    const seeds = new TextSeeds();
    seeds.expect('iso.csv');
    seeds.expect('missing.csv');
    const load = seeds.loader(f.load);
    const [a, b] = [load('iso.csv'), load('missing.csv')];
    seeds.offer('iso.csv', null);
    seeds.offer('missing.csv', null);
    expect(await a).toBe('fetched iso.csv');
    await expect(b).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('missing.csv') });
    expect(f.reads).toEqual(['iso.csv', 'missing.csv']);
  });

  it('a wait for a seed ends with ABORTED when its signal aborts', async () => {
    const seeds = new TextSeeds();
    seeds.expect('vi.csv');
    const ac = new AbortController();
    const read = seeds.loader(fallback().load)('vi.csv', ac.signal);
    ac.abort();
    await expect(read).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
