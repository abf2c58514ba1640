import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect } from 'vitest';
import { createDiskSessionStore, type DiskSessionStore } from '../../src/node/disk-sessions';
import { sessionConformance } from './conformance';

const root = mkdtempSync(path.join(os.tmpdir(), 'indapi3-conf-disk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');

describe('disk session store', () => {
  sessionConformance('disk', {
    make: async (l = {}) => createDiskSessionStore({ dir: path.join(root, String(n++)), freeBytes: () => 1e12, ...l }),
    async crashMidWrite(store, data) {
      const dir = (store as DiskSessionStore).dir;
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'disk-writer.fixture.ts'), dir, data.key], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.includes('writing')) resolve();
        });
        child.once('exit', () => reject(new Error(`the writer ended before writing: ${out}`)));
      });
      child.kill('SIGKILL');
      await exited;
      expect(out).not.toContain('done');
      // the killed writer's temporary folder is there, and goes when a store opens the folder
      expect(readdirSync(dir).some((x) => x.startsWith('.tmp-'))).toBe(true);
      const reopened = createDiskSessionStore({ dir, freeBytes: () => 1e12 });
      expect(await reopened.get(data.key)).toBeUndefined();
      expect(readdirSync(dir).filter((x) => x.startsWith('.tmp-'))).toEqual([]);
    },
  });
});
