/** The Summaries' "Years" choice for series (loaded on demand: only a series shows it). */
import type { YearsChoice } from '../years-choice';

/** Props: the choice (null = latest), the years the chosen series hold (increasing), the setter. */
export interface YearsPickerProps {
  choice: YearsChoice | null;
  held: readonly number[];
  onChange: (c: YearsChoice | null) => void;
}

type Kind = 'latest' | YearsChoice['kind'];

/** The years from a to b in either order (one year when equal). */
const rangeOf = (a: number, b: number): YearsChoice => (a === b ? { kind: 'one', year: a } : { kind: 'range', from: Math.min(a, b), to: Math.max(a, b) });

/** A select of the held years (plus the chosen one if the series do not hold it, so the link's value shows). */
function YearSelect({ label, value, held, onChange, testId }: { label: string; value: number; held: readonly number[]; onChange: (y: number) => void; testId: string }) {
  const ys = held.includes(value) ? held : [...held, value].sort((a, b) => a - b);
  return (
    <label className="field inline">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(Number(e.target.value))} data-testid={testId}>
        {ys.map((y) => <option key={y} value={y}>{y}</option>)}
      </select>
    </label>
  );
}

/**
 * Latest year (the API's default), one year, a range (from:to, every year in it) or all held
 * years; the run sends them as the API's `year` and shows the long result (a `year` column).
 */
export function YearsPicker({ choice, held, onChange }: YearsPickerProps) {
  const first = held[0] ?? 2000, last = held[held.length - 1] ?? first;
  const kind: Kind = choice ? choice.kind : 'latest';
  const setKind = (k: Kind) => onChange(k === 'latest' ? null : k === 'all' ? { kind: 'all' } : k === 'one' ? { kind: 'one', year: last } : { kind: 'range', from: first, to: last });
  return (
    <fieldset className="years-picker" data-testid="sum-years">
      <legend>Years {held.length ? <span className="muted small">(held: {first === last ? first : `${first}–${last}`})</span> : null}</legend>
      <label className="field inline">
        <span className="sr-only">Which years</span>
        <select value={kind} onChange={(e) => setKind(e.target.value as Kind)} data-testid="sum-years-kind">
          <option value="latest">Latest year{held.length ? ` (${last})` : ''}</option>
          <option value="one">One year</option>
          <option value="range">A range of years</option>
          <option value="all">All held years</option>
        </select>
      </label>
      {choice?.kind === 'one' && <YearSelect label="Year" value={choice.year} held={held} onChange={(y) => onChange({ kind: 'one', year: y })} testId="sum-year" />}
      {choice?.kind === 'range' && (
        <>
          <YearSelect label="From" value={choice.from} held={held} onChange={(y) => onChange(rangeOf(y, choice.to))} testId="sum-year-from" />
          <YearSelect label="To" value={choice.to} held={held} onChange={(y) => onChange(rangeOf(choice.from, y))} testId="sum-year-to" />
        </>
      )}
    </fieldset>
  );
}
