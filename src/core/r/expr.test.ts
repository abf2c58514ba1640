/**
 * The aggregation formula parser: every shape of the original catalog with its spacing and
 * TRUE/T variants parses to the same tree; anything else is BAD_ARGUMENT naming the formula
 * and the position; evaluation follows IEEE (R double) arithmetic; plain-language texts.
 */
import { describe, expect, it } from 'vitest';
import { aggFormulaText, cellText, evalExpr, leafKey, leavesOf, parseAggFun, renameColumns, simpleAggregate, type AggFormula, type Expr } from './expr';

/** Canonical text of a parsed formula: leaves by their key, arithmetic fully parenthesised. */
function show(f: AggFormula): string {
  if (f.kind === 'dominant') return `dominant(${f.code})`;
  const g = (e: Expr): string => (e.t === 'num' ? String(e.v) : e.t === 'agg' ? leafKey(e) : e.t === 'neg' ? `-${g(e.a)}` : `(${g(e.a)}${e.op}${g(e.b)})`);
  return g(f.root);
}

// shape -> [canonical tree, spelling variants]
const SHAPES: Array<[string, string, string[]]> = [
  ['sum(A, na.rm=TRUE)', 'sum(A,T)', ['sum(A,na.rm=T)', ' sum( A , na.rm = TRUE ) ', 'sum(A,\tna.rm=T)']],
  ['mean(A, na.rm=TRUE)', 'mean(A,T)', ['mean(A,na.rm=T)', 'mean( A, na.rm =TRUE)']],
  ['median(A, na.rm=TRUE)', 'median(A,T)', ['median(A,na.rm=T)', 'median (A , na.rm= TRUE)']],
  ['sum(A, na.rm=TRUE)/sum(B, na.rm=TRUE)', '(sum(A,T)/sum(B,T))', ['sum(A,na.rm=T)/sum(B,na.rm=T)', 'sum(A, na.rm=TRUE) / sum(B, na.rm=TRUE)']],
  ['sum(A, na.rm=TRUE)/sum(B, na.rm=TRUE)*1000', '((sum(A,T)/sum(B,T))*1000)', ['sum(A,na.rm=T)/sum(B,na.rm=T)*1000', 'sum(A, na.rm=TRUE) / sum(B, na.rm=TRUE) * 1000']],
  ['sum(A, na.rm=TRUE)/sum(B, na.rm=TRUE)*100', '((sum(A,T)/sum(B,T))*100)', ['sum(A,na.rm=T)/sum(B,na.rm=T)*100']],
  ['sum(A, na.rm=TRUE)/sum(B, na.rm=TRUE)*100*1000', '(((sum(A,T)/sum(B,T))*100)*1000)', ['sum(A,na.rm=T)/sum(B,na.rm=T)*100*1000']],
  ['sum(A*W, na.rm=TRUE)/sum(W, na.rm=TRUE)', '(sum((A*W),T)/sum(W,T))', ['sum(A*W,na.rm=T)/sum(W,na.rm=T)', 'sum(A * W, na.rm=TRUE) / sum(W, na.rm=TRUE)']],
  ['(sum(A*W, na.rm=TRUE)/sum(W, na.rm=TRUE))*100', '((sum((A*W),T)/sum(W,T))*100)', ['(sum(A*W,na.rm=T)/sum(W,na.rm=T))*100', '( sum(A*W, na.rm=TRUE) / sum(W, na.rm=TRUE) ) * 100']],
  ['(sum(A, na.rm=TRUE)/sum(B, na.rm=TRUE))*100', '((sum(A,T)/sum(B,T))*100)', ['(sum(A,na.rm=T)/sum(B,na.rm=T))*100']],
  ['names(sort(table(A), decreasing=T)[1])', 'dominant(A)', ['names(sort(table(A), decreasing=TRUE)[1])', 'names( sort( table( A ) ,decreasing = T ) [ 1 ] )', 'dominant(A)']],
  ['weighted.mean(A, W, na.rm=TRUE)', 'weighted.mean(A,W,T)', ['weighted.mean(A,W,na.rm=T)', 'weighted.mean(x = A, w = W, na.rm = TRUE)', 'weighted.mean(A, w=W, na.rm=TRUE)']],
];

describe('parseAggFun: the catalog shapes', () => {
  for (const [shape, tree, variants] of SHAPES) {
    it(shape, () => {
      expect(show(parseAggFun(shape))).toBe(tree);
      for (const v of variants) expect(show(parseAggFun(v)), v).toBe(tree);
    });
  }

  it('columns in order of first appearance; min, max, unary minus, numbers, cell arithmetic', () => {
    expect(parseAggFun('sum(A*W, na.rm=TRUE)/sum(W, na.rm=TRUE)').columns).toEqual(['A', 'W']);
    expect(show(parseAggFun('-max(A, na.rm=T) + min(A.B_2, na.rm=T)*-2.5e1'))).toBe('(-max(A,T)+(min(A.B_2,T)*-25))');
    expect(show(parseAggFun('sum(A - B/2 + -C, na.rm=TRUE)'))).toBe('sum(((A-(B/2))+-C),T)');
    expect(show(parseAggFun('mean(A)'))).toBe('mean(A,F)'); // R's default na.rm = FALSE
    expect(show(parseAggFun('sum(A, na.rm=FALSE)'))).toBe('sum(A,F)');
    expect(show(parseAggFun('+sum(.5*A, na.rm=T)'))).toBe('sum((0.5*A),T)');
  });

  it('equal aggregates have one key (one accumulator)', () => {
    const f = parseAggFun('sum(A, na.rm=TRUE)/sum(A,na.rm=T)');
    const keys = leavesOf((f as Extract<AggFormula, { kind: 'expr' }>).root).map(leafKey);
    expect(new Set(keys).size).toBe(1);
  });
});

describe('parseAggFun: errors name the formula and the position', () => {
  const BAD: Array<[string, number]> = [
    ['system("rm -rf /")', 8],
    ['sum(A); quit()', 7],
    ['weighted.mean(A, na.rm=TRUE)', 1],
    ['mean(A, B)', 1],
    ['sd(A)', 1],
    ['sum(A, na.rm=TRUE', 18],
    ['A + 1', 1],
    ['sum(log(A), na.rm=TRUE)', 5],
    ['sum(A, na.rm=YES)', 14],
    ['sum(A, trim=0.1)', 8],
    ['sum(A) * dominant(B)', 10],
    ['names(sort(table(A), decreasing=F)[1])', 33],
    ['names(sort(table(A), decreasing=T)[2])', 36],
    ['sum(A == 1)', 7],
    ['', 1],
    ['sum(A) sum(B)', 8],
  ];
  for (const [bad, pos] of BAD) {
    it(JSON.stringify(bad), () => {
      let err: any;
      try { parseAggFun(bad); } catch (e) { err = e; }
      expect(err?.code).toBe('BAD_ARGUMENT');
      expect(err.message).toContain(`'${bad}'`);
      expect(err.message).toContain(`at character ${pos}:`);
    });
  }
});

describe('evaluation and helpers', () => {
  it('R double arithmetic: x/0 is Inf, 0/0 NaN, NaN propagates', () => {
    const f = parseAggFun('sum(A, na.rm=TRUE)/sum(B, na.rm=TRUE)*100') as Extract<AggFormula, { kind: 'expr' }>;
    const at = (a: number, b: number) => evalExpr(f.root, (l) => (cellText(l.x) === 'A' ? a : b));
    expect(at(1, 4)).toBe(25);
    expect(at(1, 0)).toBe(Infinity);
    expect(at(0, 0)).toBeNaN();
    expect(at(NaN, 1)).toBeNaN();
  });

  it('renames a column everywhere; one-aggregate shapes for the benchmark', () => {
    const f = renameColumns(parseAggFun('sum(A*W, na.rm=TRUE)/sum(W, na.rm=TRUE)'), new Map([['A', 'X']]));
    expect(show(f)).toBe('(sum((X*W),T)/sum(W,T))');
    expect(f.columns).toEqual(['X', 'W']);
    expect(simpleAggregate(parseAggFun('weighted.mean(A, W, na.rm=TRUE)'))).toEqual({ fn: 'weighted.mean', code: 'A', weight: 'W' });
    expect(simpleAggregate(parseAggFun('median(A, na.rm=T)'))).toEqual({ fn: 'median', code: 'A' });
    expect(simpleAggregate(parseAggFun('names(sort(table(A), decreasing=T)[1])'))).toEqual({ fn: 'dominant', code: 'A' });
    expect(simpleAggregate(parseAggFun('sum(A, na.rm=T)/sum(B, na.rm=T)'))).toBeNull();
  });

  it('plain-language texts for describe', () => {
    expect(aggFormulaText('sum(A, na.rm=TRUE)')).toBe('The sum of A over the cells where A is not missing (0 when there is none), computed per unit as R does.');
    expect(aggFormulaText('sum(A*W, na.rm=T) / sum(W, na.rm=T)')).toMatch(/^Mean of A weighted by W: .* W also counts where A is missing, as in R\)\. Missing when the divisor is 0\.$/);
    expect(aggFormulaText('weighted.mean(A, W, na.rm=TRUE)')).toContain('missing when a weight is missing where A is not');
    expect(aggFormulaText('sum(A*W, na.rm=TRUE)/sum(W + 0*A, na.rm=TRUE)')).toMatch(/^Mean of A weighted by W over the cells where both are present/);
    expect(aggFormulaText('sum(A, na.rm=T)/sum(B, na.rm=T)*1000')).toContain('divided by the sum of B');
    expect(aggFormulaText('dominant(C)', 'class')).toContain('ties go to the smallest class value');
    expect(aggFormulaText('not a formula')).toBe('');
  });
});
