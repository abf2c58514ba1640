/**
 * Texts of a bundle's small files handed over by another realm that has read them already:
 * the page reads the catalog (`vi.csv`, `series/vi.csv`), `iso.csv` and `manifest.json` for its
 * own lists, and hands them to the engine worker, which would otherwise read them again (a
 * revalidation round trip each, then `series/vi.csv` after the manifest: about 0.4 s on a
 * 1.6 Mbps / 150 ms link before a first summary). The worker's {@link TextLoader} answers a
 * file from its seed once, and from its own loader (fetch, the service worker) otherwise.
 * Pure: no I/O of its own.
 */
import { untilAborted } from '../errors';
import type { TextLoader } from './source';

/** A seed: the text another realm read, or null when its read failed (then the loader reads itself); `used` once a read took it. */
interface Seed { text: Promise<string | null>; settle: (t: string | null) => void; used: boolean }

/**
 * The seeds of one realm (see the module comment). A file is first announced with
 * {@link TextSeeds.expect} (the other realm is reading it), then settled with
 * {@link TextSeeds.offer}; {@link TextSeeds.loader}'s reads of an announced file wait for it.
 * Each seed answers one read (the bundle reader keeps what it read; a read after a failure goes
 * to the fallback loader).
 */
export class TextSeeds {
  private readonly seeds = new Map<string, Seed>();

  /** The entry of `rel` (path relative to the bundle root), made pending when there is none. */
  private entry(rel: string): Seed {
    let e = this.seeds.get(rel);
    if (!e) {
      let settle!: (t: string | null) => void;
      const text = new Promise<string | null>((res) => (settle = res));
      const made: Seed = { text, settle, used: false };
      // a seed taken by a read is forgotten once settled (its text then lives in the reader's cache only)
      void text.then(() => { if (made.used && this.seeds.get(rel) === made) this.seeds.delete(rel); });
      this.seeds.set(rel, (e = made));
    }
    return e;
  }

  /** Announces that `rel`'s text will be offered: reads of it wait for {@link offer} instead of reading. */
  expect(rel: string): void {
    this.entry(rel);
  }

  /**
   * Settles `rel`'s seed: its text, or null when the other realm could not read it (the read
   * waiting for it then uses the fallback loader, which reports its own failure).
   */
  offer(rel: string, text: string | null): void {
    this.entry(rel).settle(text);
  }

  /** Paths announced or offered and not yet read. */
  pending(): string[] {
    return [...this.seeds].filter(([, e]) => !e.used).map(([rel]) => rel);
  }

  /**
   * A text loader that answers a seeded (or announced) file from its seed, once, and every other
   * read with `fallback`.
   * @throws IndapiError from `fallback`; ABORTED when `signal` aborts while a seed is awaited
   */
  loader(fallback: TextLoader): TextLoader {
    return async (rel, signal) => {
      const e = this.seeds.get(rel);
      if (!e || e.used) return fallback(rel, signal);
      e.used = true;
      const text = await untilAborted(e.text, signal);
      return text ?? fallback(rel, signal);
    };
  }
}
