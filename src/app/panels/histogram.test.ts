import { describe, expect, test } from 'vitest';
import { histBars } from './hist';

describe('histBars', () => {
  test('10 equal bins between min and max, labelled with the decimals, counts kept', () => {
    // Kenya's ELEVATION hist, min and max as the engine gives them
    const b = histBars('1260|1557|1827|692|561|493|314|138|50|9', -136, 3244, 0);
    expect(b).toHaveLength(10);
    expect(b[0]).toEqual({ bin: '-136 – 202', cells: 1260 });
    expect(b[9]).toEqual({ bin: '2,906 – 3,244', cells: 9 });
    expect(b.reduce((s, x) => s + x.cells, 0)).toBe(6901);
  });
  test('no bars for missing or malformed input', () => {
    expect(histBars(undefined, 0, 1, 0)).toEqual([]);
    expect(histBars('1|x', 0, 1, 0)).toEqual([]);
    expect(histBars('1|2', NaN, 1, 0)).toEqual([]);
  });
});
