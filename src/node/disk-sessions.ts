/**
 * Sessions on disk for the Node server.
 *
 * Folder: `SESSION_DIR` (default `.sessions/` in the working directory, git-ignored).
 * Layout: `<dir>/<key>/session.json` (metadata, value and texts), `<dir>/<key>/files/<name>`,
 * `<dir>/<key>/graphics/<n>.svg|.png`. A session is written into `<dir>/.tmp-<key>-<random>/`
 * and renamed to `<dir>/<key>` in one step, so a reader sees all of it or nothing; a failed
 * write removes its temporary folder.
 *
 * Lifetime: {@link SESSION_TTL_MS} (24 hours) by default (`SESSION_TTL_HOURS` in the
 * server); expired sessions answer "not found" at once and are deleted by
 * {@link DiskSessionStore.cleanup}, which the server runs every hour (and at start).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { GeneratedFile, Graphic } from '../core/api';
import { IndapiError } from '../core/errors';
import { isSessionKey, metaOf, SESSION_TTL_MS, type SessionData, type SessionMeta, type SessionStore } from '../contract/sessions';

/** True for a plain file name: no folders, no dot segments, no control characters. */
export function isSafeFileName(name: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return name.length > 0 && name.length <= 255 && name !== '.' && name !== '..' && !/[/\\\0-\x1f]/.test(name);
}

/** Options of {@link createDiskSessionStore}. */
export interface DiskSessionOptions {
  /** Folder of the sessions (created when missing). */
  dir: string;
  /** Lifetime in ms (default 24 h). */
  ttlMs?: number;
}

/** A {@link SessionStore} on disk, with its cleanup. */
export interface DiskSessionStore extends SessionStore {
  /** The folder. */
  readonly dir: string;
  /** Deletes expired sessions and stale temporary folders. */
  cleanup(now?: Date): Promise<number>;
  /** Runs {@link cleanup} every `intervalMs` (default 1 h); returns a function that stops it. */
  startCleanup(intervalMs?: number): () => void;
}

/** Creates the disk store. */
export function createDiskSessionStore(opts: DiskSessionOptions): DiskSessionStore {
  const dir = path.resolve(opts.dir);
  const ttl = opts.ttlMs ?? SESSION_TTL_MS;
  const sessionDir = (key: string) => {
    if (!isSessionKey(key)) throw new IndapiError('NOT_FOUND', `Session not found: ${key}`);
    return path.join(dir, key);
  };
  const expired = (m: SessionMeta, now = Date.now()) => now - Date.parse(m.created) > ttl;

  async function readMeta(key: string): Promise<SessionMeta | undefined> {
    if (!isSessionKey(key)) return undefined;
    let m: SessionMeta;
    try {
      m = JSON.parse(await fsp.readFile(path.join(sessionDir(key), 'session.json'), 'utf8')) as SessionMeta;
    } catch {
      return undefined;
    }
    if (expired(m)) {
      await fsp.rm(sessionDir(key), { recursive: true, force: true }).catch(() => undefined);
      return undefined;
    }
    return m;
  }

  const store: DiskSessionStore = {
    dir,
    async put(data: SessionData) {
      if (!isSessionKey(data.key)) throw new IndapiError('INTERNAL', `Invalid session key: ${data.key}`);
      for (const f of data.files) if (!isSafeFileName(f.name)) throw new IndapiError('INTERNAL', `Invalid file name in session: ${JSON.stringify(f.name)}`);
      if (new Set(data.files.map((f) => f.name)).size !== data.files.length) throw new IndapiError('INTERNAL', 'Duplicate file names in session.');
      await fsp.mkdir(dir, { recursive: true });
      const tmp = path.join(dir, `.tmp-${data.key}-${randomBytes(6).toString('hex')}`);
      try {
        await fsp.mkdir(path.join(tmp, 'files'), { recursive: true });
        await fsp.mkdir(path.join(tmp, 'graphics'));
        for (const f of data.files) await fsp.writeFile(path.join(tmp, 'files', f.name), f.bytes);
        for (let i = 0; i < data.graphics.length; i++) {
          await fsp.writeFile(path.join(tmp, 'graphics', `${i + 1}.svg`), data.graphics[i].svg);
          await fsp.writeFile(path.join(tmp, 'graphics', `${i + 1}.png`), data.graphics[i].png);
        }
        await fsp.writeFile(path.join(tmp, 'session.json'), JSON.stringify(metaOf(data)));
        await fsp.rename(tmp, sessionDir(data.key));
      } catch (e) {
        await fsp.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
        throw e;
      }
    },
    get: readMeta,
    async readFile(key, name): Promise<GeneratedFile | undefined> {
      const m = await readMeta(key);
      const info = m?.files.find((f) => f.name === name);
      if (!info || !isSafeFileName(name)) return undefined;
      try {
        const bytes = await fsp.readFile(path.join(sessionDir(key), 'files', name));
        return { name, mediaType: info.mediaType, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
      } catch {
        return undefined;
      }
    },
    async readGraphic(key, index): Promise<Graphic | undefined> {
      const m = await readMeta(key);
      if (!m || !Number.isInteger(index) || index < 1 || index > m.graphics) return undefined;
      try {
        const base = path.join(sessionDir(key), 'graphics', String(index));
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
    async delete(key) {
      if (!isSessionKey(key)) return;
      await fsp.rm(sessionDir(key), { recursive: true, force: true });
    },
    async cleanup(now = new Date()) {
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
          // A write in progress is younger than an hour; older ones were interrupted.
          const st = await fsp.stat(p).catch(() => undefined);
          if (st && now.getTime() - st.mtimeMs > 3600_000) await fsp.rm(p, { recursive: true, force: true }).catch(() => undefined);
          continue;
        }
        if (!isSessionKey(name)) continue;
        let created: number;
        try {
          created = Date.parse((JSON.parse(await fsp.readFile(path.join(p, 'session.json'), 'utf8')) as SessionMeta).created);
        } catch {
          created = (await fsp.stat(p).catch(() => undefined))?.mtimeMs ?? 0;
        }
        if (!(now.getTime() - created <= ttl)) {
          await fsp.rm(p, { recursive: true, force: true }).catch(() => undefined);
          n++;
        }
      }
      return n;
    },
    startCleanup(intervalMs = 3600_000) {
      const t = setInterval(() => void store.cleanup().catch(() => undefined), intervalMs);
      t.unref?.();
      return () => clearInterval(t);
    },
  };
  return store;
}
