/**
 * Break points of `cut()`: the one reading of a list of breaks, for the API and the app alike (issue 27
 * item 5). Two rules, as the contract states them:
 * - travel-time bands (`minutes` of catchment): 2 to {@link MAX_BREAKS} finite numbers of
 *   minutes >= 0, strictly increasing;
 * - intervals of a continuous `by` code (`by = list(ELEVATION = c(0, 500, 1000))`): 2 to
 *   {@link MAX_BY_BREAKS} finite numbers (any sign), strictly increasing.
 * Strictly increasing means sorted and without repeats: a list out of order is refused (never
 * sorted silently), so the panel accepts exactly what the API accepts. {@link parseBreaks}
 * reads typed text ("0, 60 120;240"); {@link checkBreaks} checks numbers already parsed.
 * Messages name what is wrong: the count, the bad value, or the pair out of order.
 */
import { IndapiError } from '../errors';
import { deparse, SHORT } from './deparse';

/** Most breaks of `minutes` (99 bands): the limit of the README's table, checked before any work. */
export const MAX_BREAKS = 100;

/** Most breaks (or classes) of one `by` code: the contract's `maxByValues` (README "Limits"). */
export const MAX_BY_BREAKS = 1000;

/** What a list of breaks must be, and how messages name it. */
export interface BreakRule {
  /** Names the breaks at the start of a message: `'minutes'`, `Breaks for ELEVATION`. */
  subject: string;
  /** True when {@link subject} is a plural noun ("Breaks for …": "need", not "needs"). */
  plural: boolean;
  /** Unit of a break in messages ("minutes"), or '' (the layer's own unit). */
  unit: string;
  /** Smallest break allowed (0 for minutes; -Infinity: any). */
  min: number;
  /** Most breaks. */
  maxCount: number;
  /** An example list as the reader writes one: `c(0, 60, 120)` for R, `0, 60, 120` in the app. */
  example: string;
}

/**
 * The rule of travel-time band breaks (catchment `minutes`).
 * @param subject how messages name the list: `'minutes'` (the API's argument), or the panel's field
 * @param example an example list in the reader's syntax
 * @param plural the subject is a plural noun
 */
export function minutesRule(subject = "'minutes'", example = 'c(0, 60, 120)', plural = false): BreakRule {
  return { subject, plural, unit: 'minutes', min: 0, maxCount: MAX_BREAKS, example };
}

/**
 * The rule of the interval breaks of a continuous `by` code.
 * @param code the layer's code, named in messages ("Breaks for ELEVATION …")
 * @param example an example list in the reader's syntax
 */
export function intervalRule(code: string, example = '0, 500, 1000'): BreakRule {
  return { subject: `Breaks for ${code}`, plural: true, unit: '', min: -Infinity, maxCount: MAX_BY_BREAKS, example };
}

/** What is wrong with a list of breaks: too many, too few, a value that is not allowed, or a pair out of order. */
export type BreaksProblem =
  | { kind: 'count'; n: number }
  | { kind: 'few'; n: number }
  | { kind: 'value'; at: number; value: unknown }
  | { kind: 'order'; at: number; value: number; prev: number };

/** The first problem of `values` under `rule` (count first, then value by value), or null when they are good breaks. */
export function breaksProblem(values: readonly unknown[], rule: BreakRule): BreaksProblem | null {
  if (values.length > rule.maxCount) return { kind: 'count', n: values.length };
  if (values.length < 2) return { kind: 'few', n: values.length };
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < rule.min) return { kind: 'value', at: k, value: v };
    const prev = values[k - 1] as number;
    if (k > 0 && !(v > prev)) return { kind: 'order', at: k, value: v, prev };
  }
  return null;
}

/** The message of a problem, e.g. `'minutes' must be strictly increasing numbers; 60 follows 60.` */
export function breaksMessage(p: BreaksProblem, rule: BreakRule): string {
  const s = rule.subject;
  const verb = (one: string, many: string) => (rule.plural ? many : one);
  switch (p.kind) {
    case 'count': return `${s} ${verb('gives', 'give')} ${p.n} breaks; at most ${rule.maxCount} are allowed.`;
    case 'few': return `${s} ${verb('needs', 'need')} at least two breaks${rule.unit ? ` (${rule.unit})` : ''}, e.g. ${rule.example}; got ${p.n}.`;
    case 'value': {
      const what = `finite numbers${rule.unit ? ` of ${rule.unit}` : ''}${rule.min > -Infinity ? ` >= ${rule.min}` : ''}`;
      return `${s} must be ${what}; got ${deparse(p.value, SHORT)}.`;
    }
    case 'order': return `${s} must be strictly increasing numbers; ${p.value} follows ${p.prev}.`;
  }
}

/**
 * Checks breaks under a rule.
 * @returns a copy of the breaks
 * @throws IndapiError BAD_BREAKS with {@link breaksMessage}'s text, `detail.arg` the rule's subject
 */
export function checkBreaks(values: readonly unknown[], rule: BreakRule): number[] {
  const p = breaksProblem(values, rule);
  if (p) throw new IndapiError('BAD_BREAKS', breaksMessage(p, rule), { arg: rule.subject.replace(/^'(.*)'$/, '$1') });
  return [...values] as number[];
}

/**
 * Reads typed breaks: numbers separated by commas, semicolons, bars or white space
 * ("0, 60 120;240", "0|500|1000"), then checks them under `rule`. A word that is not a number
 * is named as it was typed.
 * @throws IndapiError BAD_BREAKS (see {@link checkBreaks})
 */
export function parseBreaks(text: string, rule: BreakRule): number[] {
  const words = text.split(/[\s,;|]+/).filter(Boolean);
  return checkBreaks(words.map((w) => (Number.isFinite(Number(w)) ? Number(w) : w)), rule);
}
