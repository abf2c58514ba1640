import { expect, test } from 'vitest';
import { naNote, peopleCodes } from './common';
import type { VarRecord } from '../../core/types';

test('the NA note counts the people of people layers in the NA rows, not only the cells', () => {
  const rows = [
    { ISO3: 'KEN', ADM1_NAME_ALT: 'Coast', ELEVATION_by: null, n: 100, POP_MODEL: 1_500_000, ELEVATION: -3 },
    { ISO3: 'KEN', ADM1_NAME_ALT: 'Nairobi', ELEVATION_by: null, n: 17, POP_MODEL: 216_532, ELEVATION: -1 },
  ];
  expect(naNote(rows, true, ['POP_MODEL'])).toBe('117 cells (1,716,532 people of POP_MODEL) fell outside the breaks (row NA); widen the breaks to include them.');
  expect(naNote(rows, true)).toBe('117 cells fell outside the breaks (row NA); widen the breaks to include them.');
  expect(naNote([{ K: null, POP_MODEL: 5 }], false, ['POP_MODEL'])).toBe('Some cells (5 people of POP_MODEL) have no class: the NA row holds them.');
});

test('people layers: unit "people" and summed', () => {
  const rec = (varCode: string, unit: string, aggFunR: string) => ({ varCode, unit, aggFunR }) as VarRecord;
  const by = new Map([rec('POP_MODEL', 'people', 'sum(POP_MODEL, na.rm=TRUE)'), rec('ELEVATION', 'm', 'weighted.mean(ELEVATION, AREA_TOTAL, na.rm=TRUE)'),
    rec('X', 'people', 'mean(X)')].map((r) => [r.varCode, r]));
  expect(peopleCodes(by)).toEqual(['POP_MODEL']);
});
