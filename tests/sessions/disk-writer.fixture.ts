/**
 * Test fixture, run as its own process by tests/sessions/disk.test.ts: writes one large
 * session (40 files) into the disk store at argv[2] under key argv[3], slowly (each file
 * write waits 25 ms), and says "writing" on stdout once the first file is on disk, so the
 * test can SIGKILL it in the middle of the write.
 */
import { promises as fsp } from 'node:fs';
import { createDiskSessionStore } from '../../src/node/disk-sessions';
import { sampleSession } from './conformance';

const [dir, key] = process.argv.slice(2);
let said = false;
const store = createDiskSessionStore({
  dir,
  quotaBytes: 256 * 1048576,
  freeBytes: () => 1e12,
  async writeFile(file, data) {
    await fsp.writeFile(file, data);
    if (!said) {
      said = true;
      process.stdout.write('writing\n');
    }
    await new Promise((r) => setTimeout(r, 25));
  },
});
const d = { ...sampleSession(1000), key };
for (let i = 0; i < 40; i++) d.files.push({ name: `part-${i}.bin`, mediaType: 'application/octet-stream', bytes: new Uint8Array(100_000).fill(i) });
await store.put(d);
process.stdout.write('done\n');
