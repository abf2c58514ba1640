/**
 * Parser of the catalog's aggregation formulas (`aggFunR`): R expressions, parsed into a
 * small expression tree and never evaluated as code (no eval / Function).
 *
 * Grammar (R's precedence; spaces anywhere between tokens):
 *
 *     formula   := dominant | arith
 *     dominant  := 'dominant' '(' COLUMN ')'
 *                | 'names' '(' 'sort' '(' 'table' '(' COLUMN ')' ',' 'decreasing' '=' TRUE ')' '[' 1 ']' ')'
 *     arith     := term (('+' | '-') term)*            (over group values)
 *     term      := unary (('*' | '/') unary)*
 *     unary     := ('-' | '+') unary | NUMBER | '(' arith ')' | aggregate
 *     aggregate := ('sum' | 'mean' | 'median' | 'min' | 'max') '(' cell [',' 'na.rm' '=' LOGICAL] ')'
 *                | 'weighted.mean' '(' cell ',' cell [',' 'na.rm' '=' LOGICAL] ')'   (also x =, w =)
 *     cell      := the same arithmetic over COLUMNs and NUMBERs (per cell values)
 *     LOGICAL   := TRUE | T | FALSE | F
 *
 * `na.rm` defaults to FALSE, as in R. The catalog's 12 shapes (`sum(A, na.rm=TRUE)`,
 * `sum(A*W, na.rm=T)/sum(W, na.rm=T)`, `(sum(A, ...)/sum(B, ...))*100`, the dominant class
 * `names(sort(table(A), decreasing=T)[1])`, ...) are all instances. Evaluation (R's
 * semantics) is in `accumulate.ts`.
 */
import { IndapiError } from '../errors';

/** Aggregate functions of a formula. */
export type AggName = 'sum' | 'mean' | 'median' | 'min' | 'max' | 'weighted.mean';

/** Arithmetic operators. */
export type Op = '+' | '-' | '*' | '/';

/** A per-cell expression (the argument of an aggregate): columns, numbers and arithmetic. */
export type CellExpr =
  | { t: 'num'; v: number }
  | { t: 'col'; code: string }
  | { t: 'neg'; a: CellExpr }
  | { t: 'bin'; op: Op; a: CellExpr; b: CellExpr };

/** An aggregate over the cells of a group (a leaf of the group-level tree). */
export interface AggLeaf {
  t: 'agg';
  fn: AggName;
  /** Summarised per-cell values. */
  x: CellExpr;
  /** Weights of `weighted.mean`. */
  w?: CellExpr;
  /** R's `na.rm` (default FALSE). */
  naRm: boolean;
}

/** A group-level expression: numbers, arithmetic and aggregates. */
export type Expr =
  | { t: 'num'; v: number }
  | { t: 'neg'; a: Expr }
  | { t: 'bin'; op: Op; a: Expr; b: Expr }
  | AggLeaf;

/** A parsed aggregation formula. */
export type AggFormula =
  | { kind: 'dominant'; text: string; code: string; columns: string[] }
  | { kind: 'expr'; text: string; root: Expr; columns: string[] };

const AGGS = new Set<string>(['sum', 'mean', 'median', 'min', 'max', 'weighted.mean']);

interface Tok { k: 'id' | 'num' | 'p' | 'end'; s: string; v?: number; pos: number }

function tokenize(text: string, fail: (pos: number, msg: string) => never): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (/\s/.test(ch)) { i++; continue; }
    const rest = text.slice(i);
    let m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(rest);
    if (m) { out.push({ k: 'num', s: m[0], v: Number(m[0]), pos: i }); i += m[0].length; continue; }
    m = /^(?:[A-Za-z]|\.[A-Za-z_.])[A-Za-z0-9_.]*/.exec(rest);
    if (m) { out.push({ k: 'id', s: m[0], pos: i }); i += m[0].length; continue; }
    if ('()+-*/,=[]'.includes(ch)) {
      if (ch === '=' && text[i + 1] === '=') fail(i, "comparison '==' is not supported");
      out.push({ k: 'p', s: ch, pos: i }); i++; continue;
    }
    fail(i, `unexpected character '${ch}'`);
  }
  out.push({ k: 'end', s: 'end of text', pos: n });
  return out;
}

/**
 * Parses a catalog aggregation formula into an expression tree.
 * @param text R expression of `aggFunR`
 * @returns the tree and the distinct columns it names, in order of first appearance
 * @throws IndapiError BAD_ARGUMENT naming the formula and the 1-based character position of
 *   the first problem (unknown function, a column outside an aggregate, unbalanced
 *   parentheses, an unknown argument, ...)
 */
export function parseAggFun(text: string): AggFormula {
  const fail = (pos: number, msg: string): never => {
    throw new IndapiError('BAD_ARGUMENT', `Cannot parse the aggregation formula '${text}' at character ${pos + 1}: ${msg}.`, { formula: text, position: pos + 1 });
  };
  const toks = tokenize(String(text), fail);
  let p = 0;
  const columns: string[] = [];
  const peek = (o = 0) => toks[Math.min(p + o, toks.length - 1)];
  const isP = (s: string, o = 0) => peek(o).k === 'p' && peek(o).s === s;
  const what = (t: Tok) => (t.k === 'end' ? 'the end of the formula' : `'${t.s}'`);
  const expect = (s: string) => {
    const t = peek();
    if (t.k !== 'p' || t.s !== s) fail(t.pos, `expected '${s}', found ${what(t)}`);
    p++;
  };
  const expectId = (s: string) => {
    const t = peek();
    if (t.k !== 'id' || t.s !== s) fail(t.pos, `expected '${s}', found ${what(t)}`);
    p++;
  };
  const column = (): string => {
    const t = peek();
    if (t.k !== 'id' || isP('(', 1)) fail(t.pos, `expected a column code, found ${what(t)}`);
    if (t.s === 'TRUE' || t.s === 'FALSE' || t.s === 'T' || t.s === 'F' || t.s === 'NA') fail(t.pos, `expected a column code, found ${what(t)}`);
    p++;
    if (!columns.includes(t.s)) columns.push(t.s);
    return t.s;
  };
  const logical = (): boolean => {
    const t = peek();
    if (t.k === 'id' && (t.s === 'TRUE' || t.s === 'T')) { p++; return true; }
    if (t.k === 'id' && (t.s === 'FALSE' || t.s === 'F')) { p++; return false; }
    return fail(t.pos, `expected TRUE, T, FALSE or F, found ${what(t)}`);
  };

  // per-cell arithmetic (argument of an aggregate)
  function cellAdd(): CellExpr {
    let a = cellMul();
    while (isP('+') || isP('-')) { const op = peek().s as Op; p++; a = { t: 'bin', op, a, b: cellMul() }; }
    return a;
  }
  function cellMul(): CellExpr {
    let a = cellUnary();
    while (isP('*') || isP('/')) { const op = peek().s as Op; p++; a = { t: 'bin', op, a, b: cellUnary() }; }
    return a;
  }
  function cellUnary(): CellExpr {
    const t = peek();
    if (isP('-')) { p++; return { t: 'neg', a: cellUnary() }; }
    if (isP('+')) { p++; return cellUnary(); }
    if (t.k === 'num') { p++; return { t: 'num', v: t.v! }; }
    if (isP('(')) { p++; const e = cellAdd(); expect(')'); return e; }
    if (t.k === 'id' && isP('(', 1)) return fail(t.pos, `function '${t.s}' inside an aggregate is not supported (use columns, numbers and + - * /)`);
    if (t.k === 'id') return { t: 'col', code: column() };
    return fail(t.pos, `expected a column, a number or '(', found ${what(t)}`);
  }

  function aggregate(): AggLeaf {
    const name = peek();
    p++;
    expect('(');
    const pos: CellExpr[] = [];
    const named = new Map<string, CellExpr | boolean>();
    const allowed = name.s === 'weighted.mean' ? ['x', 'w', 'na.rm'] : ['na.rm'];
    for (;;) {
      const t = peek();
      if (t.k === 'id' && isP('=', 1)) {
        if (!allowed.includes(t.s)) fail(t.pos, `unknown argument '${t.s}' of ${name.s}()`);
        if (named.has(t.s)) fail(t.pos, `argument '${t.s}' given twice`);
        p += 2;
        named.set(t.s, t.s === 'na.rm' ? logical() : cellAdd());
      } else {
        if (named.size) fail(t.pos, 'positional argument after a named one');
        pos.push(cellAdd());
      }
      if (isP(',')) { p++; continue; }
      expect(')');
      break;
    }
    const naRm = named.has('na.rm') ? (named.get('na.rm') as boolean) : false;
    if (name.s === 'weighted.mean') {
      const x = (named.get('x') as CellExpr | undefined) ?? pos.shift();
      const w = (named.get('w') as CellExpr | undefined) ?? pos.shift();
      if (!x || !w) fail(name.pos, 'weighted.mean() needs the values and the weights (weighted.mean(x, w, na.rm=TRUE))');
      if (pos.length) fail(name.pos, 'weighted.mean() takes two values (x, w) and na.rm');
      return { t: 'agg', fn: 'weighted.mean', x: x!, w: w!, naRm };
    }
    if (pos.length !== 1) fail(name.pos, `${name.s}() takes one per-cell expression and na.rm`);
    return { t: 'agg', fn: name.s as AggName, x: pos[0], naRm };
  }

  // group-level arithmetic
  function add(): Expr {
    let a = mul();
    while (isP('+') || isP('-')) { const op = peek().s as Op; p++; a = { t: 'bin', op, a, b: mul() }; }
    return a;
  }
  function mul(): Expr {
    let a = unary();
    while (isP('*') || isP('/')) { const op = peek().s as Op; p++; a = { t: 'bin', op, a, b: unary() }; }
    return a;
  }
  function unary(): Expr {
    const t = peek();
    if (isP('-')) { p++; return { t: 'neg', a: unary() }; }
    if (isP('+')) { p++; return unary(); }
    if (t.k === 'num') { p++; return { t: 'num', v: t.v! }; }
    if (isP('(')) { p++; const e = add(); expect(')'); return e; }
    if (t.k === 'id' && isP('(', 1)) {
      if (AGGS.has(t.s)) return aggregate();
      if (t.s === 'dominant' || t.s === 'names') return fail(t.pos, `${t.s}(...) must be the whole formula`);
      return fail(t.pos, `unknown function '${t.s}' (use sum, mean, median, min, max, weighted.mean, dominant)`);
    }
    if (t.k === 'id') return fail(t.pos, `column '${t.s}' outside an aggregate (write e.g. sum(${t.s}, na.rm=TRUE))`);
    return fail(t.pos, `expected a number, '(' or an aggregate, found ${what(t)}`);
  }

  const first = peek();
  let f: AggFormula;
  if (first.k === 'id' && first.s === 'dominant' && isP('(', 1)) {
    p += 2;
    const code = column();
    expect(')');
    f = { kind: 'dominant', text, code, columns };
  } else if (first.k === 'id' && first.s === 'names' && isP('(', 1)) {
    p += 2;
    expectId('sort'); expect('('); expectId('table'); expect('(');
    const code = column();
    expect(')'); expect(','); expectId('decreasing'); expect('=');
    const t = peek();
    if (!logical()) fail(t.pos, 'the dominant class needs decreasing=TRUE');
    expect(')'); expect('[');
    const one = peek();
    if (one.k !== 'num' || one.v !== 1) fail(one.pos, `expected [1], found ${what(one)}`);
    p++;
    expect(']'); expect(')');
    f = { kind: 'dominant', text, code, columns };
  } else {
    const root = add();
    f = { kind: 'expr', text, root, columns };
  }
  const end = peek();
  if (end.k !== 'end') fail(end.pos, `unexpected ${what(end)}`);
  return f;
}

/**
 * Renames columns of a parsed formula (e.g. the record's own code for an alias).
 * @param f parsed formula
 * @param map old code -> new code (codes not in the map are kept)
 */
export function renameColumns(f: AggFormula, map: ReadonlyMap<string, string>): AggFormula {
  const r = (c: string) => map.get(c) ?? c;
  const cell = (e: CellExpr): CellExpr =>
    e.t === 'col' ? { t: 'col', code: r(e.code) } : e.t === 'neg' ? { t: 'neg', a: cell(e.a) } : e.t === 'bin' ? { ...e, a: cell(e.a), b: cell(e.b) } : e;
  const grp = (e: Expr): Expr =>
    e.t === 'agg' ? { ...e, x: cell(e.x), w: e.w && cell(e.w) } : e.t === 'neg' ? { t: 'neg', a: grp(e.a) } : e.t === 'bin' ? { ...e, a: grp(e.a), b: grp(e.b) } : e;
  const columns = [...new Set(f.columns.map(r))];
  return f.kind === 'dominant' ? { ...f, code: r(f.code), columns } : { ...f, root: grp(f.root), columns };
}

/** Canonical R text of a per-cell expression (fully parenthesised binary operations). */
export function cellText(e: CellExpr): string {
  switch (e.t) {
    case 'num': return String(e.v);
    case 'col': return e.code;
    case 'neg': return `-${cellText(e.a)}`;
    case 'bin': return `(${cellText(e.a)}${e.op}${cellText(e.b)})`;
  }
}

/** Canonical key of an aggregate leaf (equal leaves share one accumulator). */
export function leafKey(l: AggLeaf): string {
  return `${l.fn}(${cellText(l.x)}${l.w ? `,${cellText(l.w)}` : ''},${l.naRm ? 'T' : 'F'})`;
}

/** The leaves of a group-level expression, left to right. */
export function leavesOf(e: Expr, out: AggLeaf[] = []): AggLeaf[] {
  if (e.t === 'agg') out.push(e);
  else if (e.t === 'neg') leavesOf(e.a, out);
  else if (e.t === 'bin') { leavesOf(e.a, out); leavesOf(e.b, out); }
  return out;
}

/**
 * Evaluates a group-level expression given the value of each leaf, with IEEE (= R double)
 * arithmetic: x/0 is ±Inf, 0/0 NaN, NaN propagates.
 * @param leaf value of an aggregate leaf
 */
export function evalExpr(e: Expr, leaf: (l: AggLeaf) => number): number {
  switch (e.t) {
    case 'num': return e.v;
    case 'agg': return leaf(e);
    case 'neg': return -evalExpr(e.a, leaf);
    case 'bin': {
      const a = evalExpr(e.a, leaf), b = evalExpr(e.b, leaf);
      return e.op === '+' ? a + b : e.op === '-' ? a - b : e.op === '*' ? a * b : a / b;
    }
  }
}

const cellWords = (e: CellExpr): string => {
  switch (e.t) {
    case 'num': return String(e.v);
    case 'col': return e.code;
    case 'neg': return `-${cellWords(e.a)}`;
    case 'bin': {
      const s = `${cellWords(e.a)} ${e.op === '*' ? '×' : e.op} ${cellWords(e.b)}`;
      return s;
    }
  }
};

function leafWords(l: AggLeaf): string {
  const x = cellWords(l.x);
  const comp = l.x.t !== 'col';
  const over = l.naRm ? `over the cells where ${comp ? 'it' : x} is not missing` : 'over all cells (missing if any cell is missing)';
  switch (l.fn) {
    case 'sum': return `the sum of ${x} ${over} (0 when there is none)`;
    case 'mean': return `the mean of ${x} ${over}`;
    case 'median': return `the median of ${x} ${over}`;
    case 'min': return `the smallest ${x} ${over}`;
    case 'max': return `the largest ${x} ${over}`;
    case 'weighted.mean':
      return `the mean of ${x} weighted by ${cellWords(l.w!)} ${l.naRm ? `over the cells where ${x} is not missing` : 'over all cells'}` +
        ` (missing when a weight is missing where ${x} is not, as R's weighted.mean)`;
  }
}

function exprWords(e: Expr, top: boolean): string {
  switch (e.t) {
    case 'num': return String(e.v);
    case 'agg': return leafWords(e);
    case 'neg': return `minus ${exprWords(e.a, false)}`;
    case 'bin': {
      const s = `${exprWords(e.a, false)} ${e.op === '*' ? 'times' : e.op === '/' ? 'divided by' : e.op === '+' ? 'plus' : 'minus'} ${exprWords(e.b, false)}`;
      return top ? s : `(${s})`;
    }
  }
}

/**
 * Plain-language explanation of how a formula is computed over the cells of each unit (for
 * `describe` and the docs); '' when the text does not parse.
 * @param text `aggFunR` of a record
 * @param type the record's type: class records are always the dominant class of their own cells
 */
export function aggFormulaText(text: string, type: 'continuous' | 'class' | string = 'continuous'): string {
  if (type === 'class') {
    return 'The dominant class: the class covering the most cells of the unit (with coverage fractions, the largest covered area); ties go to the smallest class value.';
  }
  let f: AggFormula;
  try { f = parseAggFun(text || ''); } catch { return ''; }
  if (f.kind === 'dominant') return `The most frequent value of ${f.code} among the cells of the unit; ties go to the smallest value.`;
  const r = f.root;
  // sum(A*W)/sum(W + 0*A): the weighted mean over the cells where both are present
  if (r.t === 'bin' && r.op === '/' && r.a.t === 'agg' && r.b.t === 'agg' && r.a.fn === 'sum' && r.b.fn === 'sum' && r.a.naRm && r.b.naRm) {
    const m = /^\(\((\w[\w.]*)\*(\w[\w.]*)\),T\)$/.exec(leafKey(r.a).slice(3));
    const d = /^\(\((\w[\w.]*)\+\(0\*(\w[\w.]*)\)\),T\)$/.exec(leafKey(r.b).slice(3));
    if (m && d && ((m[1] === d[2] && m[2] === d[1]) || (m[2] === d[2] && m[1] === d[1]))) {
      const [x, w] = [d[2], d[1]];
      return `Mean of ${x} weighted by ${w} over the cells where both are present: the sum of ${x} × ${w} divided by the sum of ${w} ` +
        `over the cells that have both (0 × ${x} is missing where ${x} is, so those cells drop out of the divisor). Missing when the divisor is 0.`;
    }
  }
  // sum(A*W)/sum(W): the weighted mean as R computes it
  if (r.t === 'bin' && r.op === '/' && r.a.t === 'agg' && r.b.t === 'agg' && r.a.fn === 'sum' && r.b.fn === 'sum' &&
      r.a.x.t === 'bin' && r.a.x.op === '*' && r.b.x.t === 'col' && r.a.naRm && r.b.naRm) {
    const w = r.b.x.code;
    const [a, b] = [r.a.x.a, r.a.x.b];
    const other = a.t === 'col' && a.code === w ? b : b.t === 'col' && b.code === w ? a : null;
    if (other) {
      return `Mean of ${cellWords(other)} weighted by ${w}: the sum of ${cellWords(other)} × ${w} over the cells where both are present, ` +
        `divided by the sum of ${w} over the cells where ${w} is present (so ${w} also counts where ${cellWords(other)} is missing, as in R). ` +
        'Missing when the divisor is 0.';
    }
  }
  const s = exprWords(r, true);
  const div = JSON.stringify(r).includes('"op":"/"');
  return `${s[0].toUpperCase()}${s.slice(1)}, computed per unit as R does${div ? '; a division by 0 gives a missing value' : ''}.`;
}

/**
 * The one-aggregate shapes (`fn(A, na.rm=TRUE)`, `weighted.mean(A, W, na.rm=TRUE)`,
 * dominant) as function, column and weight; null for any other formula.
 */
export function simpleAggregate(f: AggFormula): { fn: AggName | 'dominant'; code: string; weight?: string } | null {
  if (f.kind === 'dominant') return { fn: 'dominant', code: f.code };
  const r = f.root;
  if (r.t !== 'agg' || r.x.t !== 'col') return null;
  if (r.fn !== 'weighted.mean') return { fn: r.fn, code: r.x.code };
  return r.w!.t === 'col' ? { fn: r.fn, code: r.x.code, weight: r.w!.code } : null;
}
