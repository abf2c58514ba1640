import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pidAlive, removeStaleTemps } from './housekeeping';
import { utf16Of } from './text';

describe('removeStaleTemps (issue 15 item 7)', () => {
  it('removes folders of dead processes only, and only those of this output', async () => {
    const d = mkdtempSync(join(tmpdir(), 'hk-'));
    try {
      for (const n of ['.b.tmp-999999999-ab12', '.b.tmp-999999999-ab12.old', `.b.tmp-${process.pid}-cd34`, '.other.tmp-999999999-ab12', 'b']) mkdirSync(join(d, n));
      const gone = await removeStaleTemps(join(d, 'b'));
      expect(gone.map((p) => p.slice(d.length + 1)).sort()).toEqual(['.b.tmp-999999999-ab12', '.b.tmp-999999999-ab12.old']);
      expect(readdirSync(d).sort()).toEqual([`.b.tmp-${process.pid}-cd34`, '.other.tmp-999999999-ab12', 'b']);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
  it('pidAlive', () => {
    expect(pidAlive(process.pid)).toBe(true);
    expect(pidAlive(999999999)).toBe(false);
    expect(pidAlive(0)).toBe(false);
  });
});

describe('utf16Of', () => {
  it('detects BOMs and the NUL pattern, not UTF-8 or Latin-1', () => {
    expect(utf16Of(Buffer.from([0xff, 0xfe, 0x43, 0]))).toBe('UTF-16LE');
    expect(utf16Of(Buffer.from([0xfe, 0xff, 0, 0x43]))).toBe('UTF-16BE');
    expect(utf16Of(Buffer.from('"CELL5M","ISO3"', 'utf16le'))).toBe('UTF-16LE');
    expect(utf16Of(Buffer.from('"CELL5M","ISO3","Côte"', 'utf8'))).toBeNull();
    expect(utf16Of(Buffer.from('"CELL5M","ISO3","C\xf4te"', 'latin1'))).toBeNull();
  });
});
