import { describe, expect, it } from 'vitest';
import { classListMismatch, colourTextClasses, numericClasses } from './classes';
import { formulaParseError } from './plan';

const FS = { classBreaks: '0|1|2|3|4|5|6|7|8|9|10|11|12', classLabels: '1|2|3|5|6|7|8|9|11|12|13|14|16', classColors: '' };

describe('numericClasses (issue 15 item 4)', () => {
  it('matches codes listed as classLabels when classBreaks are positions', () => {
    const r = numericClasses(FS, [1, 13, 14, 16]);
    expect(r.rule).toBe('labels-are-codes');
    expect(r.unlabelled).toEqual([]);
    expect(r.table.map((e) => e.value)).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 16]);
    expect(r.table.find((e) => e.value === 16)?.label).toBe('16');
  });
  it('takes positions even when the codes present are all below n (no mislabelling)', () => {
    const r = numericClasses(FS, [1, 2, 3]);
    expect(r.rule).toBe('labels-are-codes');
    expect(r.table.find((e) => e.value === 3)?.label).toBe('3');
  });
  it('keeps breaks as values when they are the codes', () => {
    const r = numericClasses({ classBreaks: '1|2|4', classLabels: 'Low|Mid|High', classColors: '#000000|#111111|#222222' }, [1, 4]);
    expect(r.rule).toBe('breaks');
    expect(r.table.map((e) => [e.value, e.label, e.color])).toEqual([[1, 'Low', '#000000'], [2, 'Mid', '#111111'], [4, 'High', '#222222']]);
    expect(numericClasses({ classBreaks: '1|2', classLabels: 'a|b' }, [3]).unlabelled).toEqual([3]);
  });
  it('generates colours for a short colour list and reports the mismatch', () => {
    const rec = { classBreaks: '1|2|3', classLabels: 'a|b|c', classColors: '#000000|#111111' };
    expect(numericClasses(rec, [3]).table[2].color).toMatch(/^#[0-9a-f]{6}$/);
    expect(classListMismatch(rec)).toMatch(/classLabels 3, classColors 2/);
    expect(classListMismatch({ classBreaks: '1|2', classLabels: 'a|b', classColors: '' })).toBeNull();
  });
  it('colours text classes by their classLabels position', () => {
    const t = [{ value: 1, label: '2. Tree crop', color: '#ffffff' }, { value: 2, label: 'other', color: '#eeeeee' }];
    expect(colourTextClasses(t, { classLabels: '1. Irrigated|2. Tree crop', classColors: '#000001|#000002' })).toBe('text-labels');
    expect(t.map((e) => e.color)).toEqual(['#000002', '#eeeeee']);
    expect(colourTextClasses(t, {})).toBe('text-sorted');
  });
});

describe('formulaParseError (issue 15 item 5)', () => {
  it('rejects what the engine cannot parse, accepts the catalog shapes', () => {
    for (const f of ['sum(X)) ; (sum(X', 'sum(X, na.rm=TRUE) + Sys.time()', 'sum(get("X"))']) expect(formulaParseError({ varCode: 'X', aggFunR: f })).toMatch(/Cannot parse/);
    for (const f of ['sum(X, na.rm=TRUE)', 'weighted.mean(X, W, na.rm=T)', '', 'NA']) expect(formulaParseError({ varCode: 'X', aggFunR: f })).toBeNull();
    expect(formulaParseError({ varCode: 'C', type: 'class', aggFunR: 'names(sort(table(C), decreasing=TRUE))[1]' })).toBeNull();
  });
});
