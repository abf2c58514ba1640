import { expect, test } from 'vitest';
import { orderRows } from './ResultTable';
import type { Row } from '../core/types';

test('pinned rows stay on top in both sort directions; missing values sort last', () => {
  const rows: Row[] = [{ U: 'b', V: 2 }, { V: 5 }, { U: 'a' }, { U: 'c', V: 9 }];
  const pin = (r: Row) => r.U === undefined;
  expect(orderRows(rows, { col: 'V', dir: 1 }, pin).map((r) => r.V ?? null)).toEqual([5, 2, 9, null]);
  expect(orderRows(rows, { col: 'V', dir: -1 }, pin).map((r) => r.V ?? null)).toEqual([5, 9, 2, null]);
  expect(orderRows(rows, null, pin).map((r) => r.U ?? '-')).toEqual(['-', 'b', 'a', 'c']);
  expect(orderRows(rows, { col: 'U', dir: -1 }).map((r) => r.U ?? '-')).toEqual(['c', 'b', 'a', '-']);
});
