import { describe, expect, it } from 'vitest';
import { InputDecoder, firstUtf8Sequence } from './text';

/** Decodes `parts` in order; returns the text or the thrown message. */
function decode(parts: Buffer[]): string {
  const d = new InputDecoder();
  try {
    return parts.map((p) => d.write(p)).join('') + d.end();
  } catch (e) {
    return `ERROR ${(e as Error).message}`;
  }
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');
const utf8 = (s: string) => Buffer.from(s, 'utf8');

describe('InputDecoder', () => {
  it('reads Latin-1 and UTF-8 tables alone', () => {
    expect(decode([latin1('Côte\nSão Tomé\n')])).toBe('Côte\nSão Tomé\n');
    expect(decode([utf8('Côte\nSão Tomé\n')])).toBe('Côte\nSão Tomé\n');
  });

  it('stops on UTF-8 text after Latin-1 text, in one chunk or split anywhere (issue 25 item 4)', () => {
    const whole = Buffer.concat([latin1("1,Côte d'Ivoire\n"), latin1('x'.repeat(100)), utf8("\n2,Côte d'Ivoire\n")]);
    expect(decode([whole])).toMatch(/^ERROR mixed encodings: valid UTF-8 text at byte 120 after Latin-1 text \(from byte 3\)/);
    for (let cut = 1; cut < whole.length; cut += 7) expect(decode([whole.subarray(0, cut), whole.subarray(cut)]), `cut ${cut}`).toMatch(/^ERROR mixed encodings/);
    // the UTF-8 pair split across two chunks
    const at = whole.indexOf(0xc3, 20);
    expect(decode([whole.subarray(0, at + 1), whole.subarray(at + 1)])).toMatch(/^ERROR mixed encodings/);
  });

  it('still stops on Latin-1 after UTF-8', () => {
    expect(decode([utf8('São\n'), latin1('Côte\n')])).toMatch(/^ERROR mixed encodings: invalid UTF-8/);
  });

  it('finds valid multi-byte sequences only', () => {
    expect(firstUtf8Sequence(latin1('Côte São Tomé ¡¿ ÿ'))).toBe(-1);
    expect(firstUtf8Sequence(utf8('ab€'))).toBe(2);
    expect(firstUtf8Sequence(Buffer.from([0x41, 0xc0, 0x80, 0xed, 0xa0, 0x80]))).toBe(-1); // overlong, surrogate
  });
});
