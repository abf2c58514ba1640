import { expect, test } from 'vitest';
import type { RasterLevel } from '../../src/core/map/mercator';
import { previewLevel } from './layers';

/** A fixture layer of four levels (cell sizes of the embedded bundle's COGs) with levels `read` read. */
function layer(read: number[]) {
  const lv = (i: number): RasterLevel => ({ width: 1080 >> i, height: 756 >> i, bbox: [-26, -35, 64, 28], values: new Float32Array(0) });
  return { levelCellDeg: [1 / 12, 1 / 6, 1 / 3, 2 / 3], peek: (i: number) => (read.includes(i) ? lv(i) : undefined) };
}

test('nothing read: the preview is the next coarser level (a quarter of the cells)', () => {
  expect(previewLevel(layer([]), 1)).toBe(2);
  expect(previewLevel(layer([]), 0)).toBe(1);
});

test('a coarser level already read is used, the finest of them', () => {
  expect(previewLevel(layer([3]), 0)).toBe(3);
  expect(previewLevel(layer([2, 3]), 0)).toBe(2);
  expect(previewLevel(layer([0, 3]), 1)).toBe(3); // a finer level read is no preview
});

test('the coarsest level has no preview', () => {
  expect(previewLevel(layer([]), 3)).toBeUndefined();
  expect(previewLevel(layer([0, 1, 2]), 3)).toBeUndefined();
});
