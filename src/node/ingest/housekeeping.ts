/**
 * Leftovers of killed ingest runs (issue 15 item 7). An ingest writes into
 * `.<out>.tmp-<pid>-<hex>` next to `out` and, when replacing a bundle, moves the old one to
 * `.<out>.tmp-<pid>-<hex>.old`; a run killed before its end leaves them behind. The next run
 * for the same `out` removes those whose process is no longer alive.
 */
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Whether a process id is alive on this machine (signal 0: ESRCH means gone; EPERM means it
 * exists but belongs to another user).
 * @param pid process id
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary and `.old` folders of earlier runs for `out` whose process is dead.
 * @param out the bundle folder (absolute)
 * @returns the paths removed
 */
export async function removeStaleTemps(out: string): Promise<string[]> {
  const parent = dirname(out);
  const prefix = `.${basename(out)}.tmp-`;
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const n of names) {
    if (!n.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]+(\.old)?$/.exec(n.slice(prefix.length));
    if (!m || pidAlive(Number(m[1]))) continue;
    const p = join(parent, n);
    await rm(p, { recursive: true, force: true });
    removed.push(p);
  }
  return removed;
}

/**
 * Moves a finished temporary bundle folder into place: an existing non-empty `out` is first
 * renamed to `<tmp>.old` and removed after the swap (a run killed in between leaves the
 * `.old` folder, which {@link removeStaleTemps} removes at the next run).
 * @param tmp the finished temporary folder (next to `out`)
 * @param out the bundle folder
 * @throws Error from the file system
 */
export async function moveIntoPlace(tmp: string, out: string): Promise<void> {
  const nonEmpty = await stat(out).then(async (st) => !st.isDirectory() || (await readdir(out)).length > 0, () => false);
  if (nonEmpty) {
    const old = `${tmp}.old`;
    await rename(out, old);
    await rename(tmp, out);
    await rm(old, { recursive: true, force: true });
  } else {
    await rm(out, { recursive: true, force: true });
    await rename(tmp, out);
  }
}
