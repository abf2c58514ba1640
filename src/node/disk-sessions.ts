/**
 * Sessions on disk for the Node server, within a byte quota.
 *
 * Folder: `SESSION_DIR` (default `.sessions/` in the working directory, git-ignored).
 * Layout: `<dir>/<key>/meta.json` (the small {@link SessionMeta}: listings, `info`, `stdout`
 * paths and file reads parse only this), `<dir>/<key>/value.json` (R/.val),
 * `<dir>/<key>/print.txt` (the printed value; both kept in `meta.json` instead when together
 * under {@link SMALL_SESSION_CHARS}), `<dir>/<key>/files/<name>`,
 * `<dir>/<key>/graphics/<n>.svg|.png` and `<dir>/<key>/session.zip` (the files' archive,
 * built once). A session is written into `<dir>/.tmp-<pid>-<key>-<random>/` and renamed to
 * `<dir>/<key>` in one step, so a reader sees all of it or nothing; a failed write removes
 * its temporary folder, and temporary folders of a process that is gone (a killed server)
 * are removed when the store opens.
 *
 * Quota: `quotaBytes` (`SESSION_QUOTA_MB` in the server, default 1024 MiB) bounds the bytes
 * of all sessions; past it the least recently used sessions (by any read) are deleted
 * (an LRU index from `lru-cache`, rebuilt from the folder at start, oldest first). One
 * session may hold at most `maxSessionBytes` (default a quarter of the quota): a larger one
 * is refused with a 400 that points to a smaller area. At start the quota is capped by the
 * space the folder's file system really has (`fs.statfs`: the sessions already there plus
 * the free space, less {@link DISK_RESERVE_BYTES}), and the cap is logged. When a write still
 * fails with ENOSPC (other programs filled the disk), the least recently used sessions are
 * deleted until the session's bytes are freed and the write is tried once more; if it fails
 * again the call answers 503 with `Retry-After` and a plain message (no errno). Nothing is
 * remembered: the next call writes again, so the server recovers once space is back.
 *
 * Lifetime: {@link SESSION_TTL_MS} (24 hours) by default (`SESSION_TTL_HOURS` in the
 * server); expired sessions answer "not found" at once and are deleted by
 * {@link DiskSessionStore.cleanup}, which the server runs every hour (and at start).
 */
import { constants as fsConstants, promises as fsp, readdirSync, statfsSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { GeneratedFile, Graphic } from '../core/api';
import { IndapiError } from '../core/errors';
import { BusyError } from '../contract/run';
import { isSessionKey, metaOf, sessionBytes, SESSION_TTL_MS, withSessionLifecycle, type ManagedSessionStore, type SessionData, type SessionMeta } from '../contract/sessions';

/** True for a plain file name: no folders, no dot segments, no control characters. */
export function isSafeFileName(name: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return name.length > 0 && name.length <= 255 && name !== '.' && name !== '..' && !/[/\\\0-\x1f]/.test(name);
}

/** Default quota of all sessions: 1024 MiB, in bytes. */
export const DEFAULT_SESSION_QUOTA_BYTES = 1024 * 1024 * 1024;

/** Options of {@link createDiskSessionStore}. */
export interface DiskSessionOptions {
  /** Folder of the sessions (created when missing). */
  dir: string;
  /** Lifetime in ms (default 24 h). */
  ttlMs?: number;
  /** Bytes all sessions may take (default {@link DEFAULT_SESSION_QUOTA_BYTES}); least recently used go first. */
  quotaBytes?: number;
  /** Bytes one session may take (default a quarter of the quota). */
  maxSessionBytes?: number;
  /** Free bytes of the folder's file system (default `fs.statfs`; tests inject a small disk). */
  freeBytes?: (dir: string) => number;
  /** Writes a file (default `fs.promises.writeFile`; tests inject ENOSPC). */
  writeFile?: (file: string, data: string | Uint8Array) => Promise<void>;
  /** Where the quota's cap by the free space is said (default none). */
  log?: (line: string) => void;
}

/** Bytes of the session folder's file system left free by the quota cap at start: 64 MiB, or a tenth of the space when smaller. */
export const DISK_RESERVE_BYTES = 64 * 1024 * 1024;

/** The quota is never capped below this (16 MiB), so a disk full at start recovers with no restart. */
export const DISK_MIN_QUOTA_BYTES = 16 * 1024 * 1024;

/** Seconds a call is told to wait when the disk is full (`Retry-After`). */
export const DISK_FULL_RETRY_S = 30;

/** Free bytes an unprivileged process may write in `dir`'s file system (or its nearest existing parent's); Infinity when unknown. */
export function freeDiskBytes(dir: string): number {
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    try {
      const s = statfsSync(p);
      return Number(s.bavail) * Number(s.bsize);
    } catch {
      if (path.dirname(p) === p) return Infinity;
    }
  }
}

const isNoSpace = (e: unknown) => ['ENOSPC', 'EDQUOT'].includes((e as NodeJS.ErrnoException)?.code ?? '');

/** A session store on disk under the shared lifecycle ({@link withSessionLifecycle}), with its cleanup of stale temporary folders. */
export interface DiskSessionStore extends ManagedSessionStore {
  /** The folder. */
  readonly dir: string;
  /** Reads the kept ZIP archive, undefined when none is kept. */
  readZip(key: string, signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /** Keeps the ZIP archive of a session (counted in the quota). */
  putZip(key: string, zip: Uint8Array, signal?: AbortSignal): Promise<void>;
  /** Bytes the sessions take, as the LRU index counts them (after the folder was read). */
  usedBytes(): Promise<number>;
}

/** True when process `pid` is running on this machine. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Bytes of the files under a folder (one level of sub-folders, as sessions are laid out). */
async function folderBytes(p: string): Promise<number> {
  let n = 0;
  for (const e of await fsp.readdir(p, { withFileTypes: true }).catch(() => [])) {
    const q = path.join(p, e.name);
    if (e.isDirectory()) n += await folderBytes(q);
    else n += (await fsp.stat(q).catch(() => undefined))?.size ?? 0;
  }
  return n;
}

/** A temporary folder `.tmp-<pid>-...` of a live process other than a stale one (any other `.tmp-` folder is stale). */
function isLiveTemp(name: string): boolean {
  const m = /^\.tmp-(\d+)-/.exec(name);
  return !!m && isAlive(Number(m[1]));
}

/**
 * The quota of all sessions and of one session: the asked quota capped by the space the
 * folder's file system really has (the sessions already there plus the free space, less
 * {@link DISK_RESERVE_BYTES}), never below {@link DISK_MIN_QUOTA_BYTES}; the cap is logged.
 */
function sessionQuota(opts: DiskSessionOptions, dir: string): { quota: number; maxSession: number } {
  const asked = Math.max(1, opts.quotaBytes ?? DEFAULT_SESSION_QUOTA_BYTES);
  const free = (opts.freeBytes ?? freeDiskBytes)(dir);
  const reserve = Math.min(DISK_RESERVE_BYTES, free / 10);
  const used = free - reserve >= asked ? 0 : existingBytes(dir); // walked only when the disk may be the limit
  const room = used + free - reserve;
  // never below 16 MiB (a disk full at start would otherwise refuse every session until a restart; ENOSPC is handled below)
  const quota = Math.floor(Math.min(asked, Math.max(room, DISK_MIN_QUOTA_BYTES)));
  if (quota < asked) opts.log?.(`sessions: the quota of ${mib(asked)} is capped to ${mib(quota)}: the file system of ${dir} has ${mib(free)} free (and ${mib(used)} of sessions)`);
  return { quota, maxSession: Math.min(quota, opts.maxSessionBytes ?? Math.floor(quota / 4)) };
}

/**
 * The session folder: the LRU index of the sessions' sizes (eviction deletes the folder),
 * reads that honour the lifetime and count as a use, and writes within the quota.
 */
class SessionFolder {
  readonly ttl: number;
  readonly lru: LRUCache<string, number>;
  /** The index read from the folder. */
  readonly ready: Promise<void>;
  readonly maxSession: number;
  private readonly writeFile: NonNullable<DiskSessionOptions['writeFile']>;
  private made: Promise<unknown> | undefined;

  constructor(readonly dir: string, private readonly opts: DiskSessionOptions) {
    this.ttl = opts.ttlMs ?? SESSION_TTL_MS;
    this.writeFile = opts.writeFile ?? ((f: string, d: string | Uint8Array) => fsp.writeFile(f, d));
    const { quota, maxSession } = sessionQuota(opts, dir);
    this.maxSession = maxSession;
    this.lru = new LRUCache<string, number>({
      maxSize: quota,
      sizeCalculation: (n) => Math.max(1, n),
      dispose: (_n, key, reason) => {
        if (reason === 'evict') void fsp.rm(path.join(dir, key), { recursive: true, force: true }).catch(() => undefined);
      },
    });
    this.ready = indexFolder(dir, this.lru);
  }

  /** The folder of a session. @throws IndapiError NOT_FOUND for a malformed key */
  sessionDir(key: string): string {
    if (!isSessionKey(key)) throw new IndapiError('NOT_FOUND', `Session not found: ${key}`);
    return path.join(this.dir, key);
  }

  /** The stored metadata (with a small session's value and print), undefined when missing or expired. */
  async readStored(key: string): Promise<StoredMeta | undefined> {
    if (!isSessionKey(key)) return undefined;
    await this.ready;
    let m: StoredMeta;
    try {
      m = JSON.parse(await fsp.readFile(path.join(this.sessionDir(key), 'meta.json'), 'utf8')) as StoredMeta;
    } catch {
      return undefined;
    }
    if (Date.now() - Date.parse(m.created) > this.ttl) {
      this.lru.delete(key);
      await fsp.rm(this.sessionDir(key), { recursive: true, force: true }).catch(() => undefined);
      return undefined;
    }
    this.lru.get(key); // a read makes it recently used
    return m;
  }

  /** The metadata without a small session's value and print. */
  async readMeta(key: string): Promise<SessionMeta | undefined> {
    const m = await this.readStored(key);
    if (!m) return undefined;
    const { small: _small, ...meta } = m;
    return meta;
  }

  /** A part of the session: from the metadata for a small session, else its file. */
  async readPart(key: string, part: 'value.json' | 'print.txt'): Promise<string | undefined> {
    const m = await this.readStored(key);
    if (!m) return undefined;
    if (m.small) return part === 'print.txt' ? m.small.print : JSON.stringify(m.small.value);
    return fsp.readFile(path.join(this.sessionDir(key), part), 'utf8').catch(() => undefined);
  }

  /** Deletes least recently used sessions until `bytes` are freed (or none is left). */
  private async evictFor(bytes: number): Promise<void> {
    let freed = 0;
    for (const key of [...this.lru.rkeys()]) {
      if (freed >= bytes) break;
      freed += this.lru.peek(key) ?? 0;
      this.lru.delete(key);
      await fsp.rm(path.join(this.dir, key), { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Creates the folder once (again after a failure, e.g. when it was removed under the server). */
  private mkdirOnce(): Promise<unknown> {
    return (this.made ??= fsp.mkdir(this.dir, { recursive: true }).catch((e) => { this.made = undefined; throw e; }));
  }

  /**
   * Writes a session into a temporary folder renamed into place; a disk full frees the
   * session's bytes from the least recently used and tries once more.
   * @throws IndapiError INTERNAL for a bad key or file name; BusyError when the disk is still full
   */
  async put(data: SessionData): Promise<void> {
    if (!isSessionKey(data.key)) throw new IndapiError('INTERNAL', `Invalid session key: ${data.key}`);
    for (const f of data.files) if (!isSafeFileName(f.name)) throw new IndapiError('INTERNAL', `Invalid file name in session: ${JSON.stringify(f.name)}`);
    if (new Set(data.files.map((f) => f.name)).size !== data.files.length) throw new IndapiError('INTERNAL', 'Duplicate file names in session.');
    await this.ready;
    const valueJson = JSON.stringify(data.value ?? null);
    const bytes = sessionBytes(data, valueJson); // over the one-session bound was refused by the lifecycle
    try {
      await this.attempt(data, valueJson);
    } catch (e) {
      if (!isNoSpace(e)) throw e;
      // the disk is full: free the session's bytes from the least recently used, then once more
      await this.evictFor(bytes);
      try {
        await this.attempt(data, valueJson);
      } catch (e2) {
        if (!isNoSpace(e2)) throw e2;
        this.opts.log?.(`sessions: the disk of ${this.dir} is full; a result of ${mib(bytes)} could not be kept`);
        throw new BusyError(DISK_FULL_RETRY_S, `The server's disk is full, so the result could not be kept. Try again in ${DISK_FULL_RETRY_S} seconds.`);
      }
    }
    this.lru.set(data.key, bytes);
  }

  /** One write of a session: into a temporary folder (the folder made again once if it went away), renamed into place. */
  private async attempt(data: SessionData, valueJson: string): Promise<void> {
    await this.mkdirOnce();
    const tmp = path.join(this.dir, `.tmp-${process.pid}-${data.key}-${randomBytes(6).toString('hex')}`);
    try {
      await writeSession(tmp, data, valueJson, this.writeFile).catch(async (e) => {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        this.made = undefined; // the folder went away under the server: make it again, once
        await this.mkdirOnce();
        await writeSession(tmp, data, valueJson, this.writeFile);
      });
      await fsp.rename(tmp, this.sessionDir(data.key));
    } catch (e) {
      await fsp.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
      throw e;
    }
  }

  /** Keeps the ZIP archive of a session (counted in the quota); a disk full keeps none. */
  async putZip(key: string, zip: Uint8Array): Promise<void> {
    const m = await this.readStored(key);
    if (!m || m.zipBytes) return;
    const p = this.sessionDir(key);
    const tmp = `${p}/.zip-${randomBytes(6).toString('hex')}`;
    try {
      await this.writeFile(tmp, zip);
    } catch (e) {
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      if (isNoSpace(e)) return; // not kept: the archive is built again on the next read
      throw e;
    }
    await fsp.rename(tmp, path.join(p, 'session.zip'));
    await writeAtomic(path.join(p, 'meta.json'), JSON.stringify({ ...m, zipBytes: zip.byteLength }));
    this.lru.set(key, (this.lru.peek(key) ?? 0) + zip.byteLength);
  }
}

/**
 * Creates the disk store: the folder under {@link withSessionLifecycle} (lifetime, the
 * one-session cap, cleanup), with the quota kept by the folder itself (`quotaBytes: 'store'`:
 * its LRU index, capped by the free space, also frees space when the disk fills).
 */
export function createDiskSessionStore(opts: DiskSessionOptions): DiskSessionStore {
  const f = new SessionFolder(path.resolve(opts.dir), opts);
  const { dir, lru } = f;
  const inner = {
    put: (data: SessionData) => f.put(data),
    get: (key: string) => f.readMeta(key),
    async readValue(key: string) {
      const m = await f.readStored(key);
      if (m?.small) return { value: m.small.value };
      const t = m && (await fsp.readFile(path.join(f.sessionDir(key), 'value.json'), 'utf8').catch(() => undefined));
      return t === undefined ? undefined : { value: JSON.parse(t) as unknown };
    },
    readPrint: (key: string) => f.readPart(key, 'print.txt'),
    async readZip(key: string) {
      const m = await f.readMeta(key);
      if (!m?.zipBytes) return undefined;
      const b = await fsp.readFile(path.join(f.sessionDir(key), 'session.zip')).catch(() => undefined);
      return b && new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
    putZip: (key: string, zip: Uint8Array) => f.putZip(key, zip),
    async readFile(key: string, name: string): Promise<GeneratedFile | undefined> {
      const m = await f.readMeta(key);
      const info = m?.files.find((x) => x.name === name);
      if (!info || !isSafeFileName(name)) return undefined;
      try {
        const bytes = await fsp.readFile(path.join(f.sessionDir(key), 'files', name));
        return { name, mediaType: info.mediaType, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
      } catch {
        return undefined;
      }
    },
    async readGraphic(key: string, index: number): Promise<Graphic | undefined> {
      const m = await f.readMeta(key);
      if (!m || !Number.isInteger(index) || index < 1 || index > m.graphics) return undefined;
      try {
        const base = path.join(f.sessionDir(key), 'graphics', String(index));
        const [svg, png] = await Promise.all([fsp.readFile(base + '.svg', 'utf8'), fsp.readFile(base + '.png')]);
        return { svg, png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength) };
      } catch {
        return undefined;
      }
    },
    async list() {
      try {
        return (await fsp.readdir(dir)).filter(isSessionKey);
      } catch {
        return [];
      }
    },
    async delete(key: string) {
      if (!isSessionKey(key)) return;
      lru.delete(key);
      await fsp.rm(f.sessionDir(key), { recursive: true, force: true });
    },
    async cleanup(now = new Date()) {
      await f.ready;
      return cleanupFolder(dir, f.ttl, now, (key) => lru.delete(key));
    },
    async ping() {
      await fsp.mkdir(dir, { recursive: true });
      await fsp.access(dir, fsConstants.W_OK);
    },
  };
  const managed = withSessionLifecycle(inner, { ttlMs: f.ttl, quotaBytes: 'store', maxSessionBytes: f.maxSession });
  return Object.assign(managed, {
    dir,
    async usedBytes() {
      await f.ready;
      return lru.calculatedSize;
    },
  }) as DiskSessionStore;
}

/**
 * A value and printed value together at most this size (characters) are kept in `meta.json`
 * (as `small`) instead of files of their own: a typical call (category, describe, a summary)
 * is then one file, fewer file-system operations per call under load (bench/load.ts).
 */
export const SMALL_SESSION_CHARS = 16 * 1024;

/** `meta.json` as stored: the metadata, with the value and printed value of a small session. */
interface StoredMeta extends SessionMeta {
  small?: { value: unknown; print: string };
}

/** MiB with one decimal, for the log. */
const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

/** Bytes of the session folders already in `dir` at start (synchronous: once, before the server listens). */
function existingBytes(dir: string): number {
  const walk = (p: string): number => {
    let n = 0;
    let entries: Dirent[];
    try {
      entries = readdirSync(p, { withFileTypes: true });
    } catch {
      return 0;
    }
    for (const e of entries) {
      const q = path.join(p, e.name);
      if (e.isDirectory()) n += walk(q);
      else n += (() => { try { return statSync(q).size; } catch { return 0; } })();
    }
    return n;
  };
  try {
    return readdirSync(dir).filter(isSessionKey).reduce((n, k) => n + walk(path.join(dir, k)), 0);
  } catch {
    return 0;
  }
}

/** Writes a session's parts into a new folder (`tmp`, whose parent exists). */
async function writeSession(tmp: string, data: SessionData, valueJson: string, writeFile: NonNullable<DiskSessionOptions['writeFile']>): Promise<void> {
  await fsp.mkdir(tmp);
  if (data.files.length) {
    await fsp.mkdir(path.join(tmp, 'files'));
    for (const f of data.files) await writeFile(path.join(tmp, 'files', f.name), f.bytes);
  }
  if (data.graphics.length) {
    await fsp.mkdir(path.join(tmp, 'graphics'));
    for (let i = 0; i < data.graphics.length; i++) {
      await writeFile(path.join(tmp, 'graphics', `${i + 1}.svg`), data.graphics[i].svg);
      await writeFile(path.join(tmp, 'graphics', `${i + 1}.png`), data.graphics[i].png);
    }
  }
  if (data.zip) await writeFile(path.join(tmp, 'session.zip'), data.zip);
  const meta: StoredMeta = metaOf(data);
  if (valueJson.length + data.print.length <= SMALL_SESSION_CHARS) meta.small = { value: data.value ?? null, print: data.print };
  else {
    await writeFile(path.join(tmp, 'value.json'), valueJson);
    await writeFile(path.join(tmp, 'print.txt'), data.print);
  }
  await writeFile(path.join(tmp, 'meta.json'), JSON.stringify(meta));
}

/** Replaces a file in one step (write beside, rename). */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${randomBytes(6).toString('hex')}`;
  await fsp.writeFile(tmp, text);
  await fsp.rename(tmp, file);
}

/**
 * Reads the folder at start: removes temporary folders of processes that are gone and
 * sessions without metadata (interrupted or of an older layout), and puts the others into
 * the LRU index, least recently modified first (so they are evicted first).
 */
async function indexFolder(dir: string, lru: LRUCache<string, number>): Promise<void> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  const found: Array<{ key: string; bytes: number; mtimeMs: number }> = [];
  for (const name of names) {
    const p = path.join(dir, name);
    if (name.startsWith('.tmp-')) {
      if (!isLiveTemp(name)) await fsp.rm(p, { recursive: true, force: true }).catch(() => undefined);
      continue;
    }
    if (!isSessionKey(name)) continue;
    const st = await fsp.stat(path.join(p, 'meta.json')).catch(() => undefined);
    if (!st) {
      await fsp.rm(p, { recursive: true, force: true }).catch(() => undefined);
      continue;
    }
    found.push({ key: name, bytes: await folderBytes(p), mtimeMs: st.mtimeMs });
  }
  found.sort((a, b) => a.mtimeMs - b.mtimeMs);
  for (const f of found) lru.set(f.key, f.bytes);
}

/** Deletes expired sessions, and temporary folders older than an hour or of a process that is gone; returns how many sessions went. */
async function cleanupFolder(dir: string, ttl: number, now: Date, forget: (key: string) => void): Promise<number> {
  let n = 0;
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const p = path.join(dir, name);
    if (name.startsWith('.tmp-')) {
      const st = await fsp.stat(p).catch(() => undefined);
      if (st && (!isLiveTemp(name) || now.getTime() - st.mtimeMs > 3600_000)) await fsp.rm(p, { recursive: true, force: true }).catch(() => undefined);
      continue;
    }
    if (!isSessionKey(name)) continue;
    let created: number;
    try {
      created = Date.parse((JSON.parse(await fsp.readFile(path.join(p, 'meta.json'), 'utf8')) as SessionMeta).created);
    } catch {
      created = (await fsp.stat(p).catch(() => undefined))?.mtimeMs ?? 0;
    }
    if (!(now.getTime() - created <= ttl)) {
      forget(name);
      await fsp.rm(p, { recursive: true, force: true }).catch(() => undefined);
      n++;
    }
  }
  return n;
}
