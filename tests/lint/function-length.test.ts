// No function in src/ or workers/ over 150 lines (issue 27; it was 300) (project rule; scripts/function-lengths.mjs
// lists the longest: `node scripts/function-lengths.mjs --top 10`).
import { describe, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { functionLengths } from '../../scripts/function-lengths.mjs';


describe('function length', () => {
  test('finds functions (the script parses the sources)', () => {
    expect((functionLengths() as Array<{ name: string }>).some((f) => f.name === 'createEngine')).toBe(true);
  });

  test('no function over 150 lines', () => {
    const over = (functionLengths() as Array<{ file: string; name: string; lines: number }>)
      .filter((f) => f.lines > 150);
    expect(over).toEqual([]);
  });
});
