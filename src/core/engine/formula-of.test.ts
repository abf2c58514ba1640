/**
 * formulaOf: a record's formula resolved against the catalog: other columns must have
 * records (INTERNAL naming the formula and the code otherwise), the first column stands for
 * the record's own values when it has no record, class records are their own dominant class.
 */
import { describe, expect, it } from 'vitest';
import { Catalog } from '../catalog';
import type { VarRecord } from '../types';
import { formulaOf } from './plan';

const rec = (varCode: string, aggFunR: string, type: 'continuous' | 'class' = 'continuous', published = '2024-01-01') =>
  ({ varCode, aggFunR, type, published, dec: 1 }) as VarRecord;
const cat = new Catalog(
  [rec('YIELD', 'sum(PROD, na.rm=TRUE)/sum(AREA, na.rm=TRUE)*1000'), rec('PROD', 'sum(PROD, na.rm=TRUE)'),
    rec('AREA', 'sum(AREA, na.rm=TRUE)', 'continuous', 'FALSE'), rec('ALIAS', 'mean(old_name, na.rm=TRUE)'),
    rec('BAD', 'sum(BAD*NOPE, na.rm=TRUE)/sum(NOPE, na.rm=TRUE)'), rec('ZONE', 'names(sort(table(OTHER), decreasing=T)[1])', 'class'),
    rec('NOFORM', ''), rec('SYNTAX', 'sum(NOFORM, na.rm=TRUE')],
  [], async () => [],
);

describe('formulaOf', () => {
  it('evaluates a formula over the columns it names (helper records may be unpublished)', () => {
    const f = formulaOf(cat, cat.need('YIELD'));
    expect(f.columns).toEqual(['PROD', 'AREA']);
  });
  it('the first column stands for the record when it has no record of its own', () => {
    expect(formulaOf(cat, cat.need('ALIAS')).columns).toEqual(['ALIAS']);
    expect(formulaOf(cat, cat.need('NOFORM')).text).toBe('mean(NOFORM, na.rm=TRUE)');
  });
  it('class records are the dominant class of their own cells', () => {
    expect(formulaOf(cat, cat.need('ZONE'))).toMatchObject({ kind: 'dominant', code: 'ZONE' });
  });
  it('a code without a record is INTERNAL naming the formula and the code; bad syntax BAD_ARGUMENT', () => {
    expect(() => formulaOf(cat, cat.need('BAD'))).toThrow(expect.objectContaining({ code: 'INTERNAL', message: expect.stringMatching(/BAD 'sum\(BAD\*NOPE.*names NOPE/) }));
    expect(() => formulaOf(cat, cat.need('SYNTAX'))).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining('at character 23') }));
  });
});
