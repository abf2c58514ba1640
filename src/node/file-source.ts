/**
 * Node adapter: a {@link RangeSource} over a local file, read with positioned reads on a
 * file handle opened once and kept open. Also a {@link SourceFactory} and {@link TextLoader}
 * for a bundle folder.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { IndapiError } from '../core/errors';
import type { RangeSource, SourceFactory, TextLoader } from '../core/io/source';

/** A byte-range source over one local file. */
export class FileSource implements RangeSource {
  readonly key: string;
  private handle: Promise<FileHandle> | null = null;

  /** @param path absolute or relative file path */
  constructor(readonly path: string) {
    this.key = resolve(path);
  }

  private fh(): Promise<FileHandle> {
    if (!this.handle) {
      const h = open(this.path, 'r');
      this.handle = h;
      h.catch(() => { if (this.handle === h) this.handle = null; });
    }
    return this.handle;
  }

  /**
   * Reads `length` bytes at `offset` (fewer at end of file).
   * @throws IndapiError IO when the file cannot be read, ABORTED when `signal` aborted
   */
  async getBytes(offset: number, length: number, signal?: AbortSignal): Promise<ArrayBuffer> {
    if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
    let fh: FileHandle;
    try {
      fh = await this.fh();
    } catch (e) {
      throw new IndapiError('IO', `Cannot open ${this.path}: ${(e as Error).message}`);
    }
    const buf = new Uint8Array(length);
    let got = 0;
    try {
      while (got < length) {
        const { bytesRead } = await fh.read(buf, got, length - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
    } catch (e) {
      throw new IndapiError('IO', `Cannot read ${this.path}: ${(e as Error).message}`);
    }
    if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
    return got === length ? buf.buffer : buf.slice(0, got).buffer;
  }

  /** File size in bytes. @throws IndapiError IO */
  async size(): Promise<number> {
    try {
      return (await (await this.fh()).stat()).size;
    } catch (e) {
      throw new IndapiError('IO', `Cannot stat ${this.path}: ${(e as Error).message}`);
    }
  }

  /** Closes the file handle. */
  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    if (h) await (await h).close().catch(() => undefined);
  }
}

/** Source factory for a bundle folder: relative paths resolve against `dataDir`. */
export function fileSourceFactory(dataDir: string): SourceFactory {
  return (rel) => new FileSource(join(dataDir, rel));
}

/**
 * Text loader for a bundle folder.
 * @throws IndapiError IO when the file cannot be read
 */
export function fileTextLoader(dataDir: string): TextLoader {
  return async (rel, signal) => {
    if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
    try {
      return await readFile(join(dataDir, rel), { encoding: 'utf8', signal });
    } catch (e) {
      if (signal?.aborted) throw new IndapiError('ABORTED', 'The request was aborted.');
      throw new IndapiError('IO', `Cannot read ${rel}: ${(e as Error).message}`);
    }
  };
}
