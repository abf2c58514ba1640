/**
 * The year control of a series on the map (loaded on first use): a slider over the years the
 * series holds with a play/pause button (arrow keys step a year, Home/End go to the ends, Space
 * plays or pauses), the year shown; the change map's choice (the year's values, the difference
 * or the % change from a first year: national and gridded series alike); for a national series
 * also its legend (what is drawn, on which outlines, units, the source).
 */
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { SeriesChoro } from './series-map';
import { NATIONAL_NOTE } from './series-info';

/** Play speed: one year per this many milliseconds. */
export const PLAY_STEP_MS = 900;

/** Props of {@link YearControl}. */
export interface YearControlProps {
  /** Years held, increasing. */
  years: number[];
  /** Year drawn (the change's second year). */
  year: number;
  onYear: (y: number) => void;
  /** The change map's choice (none: no choice offered). */
  change?: ChangeChoice;
  /** National series: the choropleth legend. */
  national?: {
    /** The choropleth drawn (null: loading). */
    choro: SeriesChoro | null;
    /** The source's short name (the record's `sourceMini`/`sources`) and licence, shown under the legend. */
    source: string;
  };
  /**
   * Phone layout: the national classes start closed, and the control is one line whose button
   * unfolds the change choice (folded again whenever the layout turns into a phone's).
   */
  collapsed?: boolean;
}

/** The change map's choice: the year's values (null), the difference or the % change from year `from`. */
export interface ChangeChoice {
  change: 'diff' | 'pct' | null;
  from: number | null;
  onChange: (c: 'diff' | 'pct' | null, from?: number) => void;
}

/** The choice of what the map shows: the year's values or a change, and from which year. */
function ChangeRow({ years, c }: { years: number[]; c: ChangeChoice }) {
  return (
    <div className="row small change-row">
      <label>Map <select value={c.change ?? ''} onChange={(e) => c.onChange((e.target.value || null) as 'diff' | 'pct' | null)}>
        <option value="">the year's values</option>
        <option value="diff">change (difference)</option>
        <option value="pct">change (%)</option>
      </select></label>
      {c.change && <label> from <select value={c.from ?? ''} onChange={(e) => c.onChange(c.change, Number(e.target.value))}>
        {years.map((y) => <option key={y} value={y}>{y}</option>)}
      </select></label>}
    </div>
  );
}

/** The next year when playing: the one after `year`, or null at the end. */
export function nextYear(years: readonly number[], year: number): number | null {
  const i = years.indexOf(year);
  return i >= 0 && i < years.length - 1 ? years[i + 1] : null;
}

/** Plays the years: while `playing`, steps to the next year every {@link PLAY_STEP_MS}, stopping at the last. */
function usePlay(playing: boolean, years: number[], year: number, onYear: (y: number) => void, stop: () => void): void {
  useEffect(() => {
    if (!playing) return;
    const t = setTimeout(() => {
      const n = nextYear(years, year);
      if (n === null) stop(); else onYear(n);
    }, PLAY_STEP_MS);
    return () => clearTimeout(t);
  }, [playing, year, years]);
}

/** The national series' legend: what is drawn on which outlines, classes, no value, source. */
function NationalLegend({ choro, source }: { choro: SeriesChoro; source: string }) {
  return (
    <>
      <p className="muted small series-note">{NATIONAL_NOTE[0].toUpperCase() + NATIONAL_NOTE.slice(1)}: each country filled with its value on the country outlines (admin-0).</p>
      <ul role="list">
        {choro.legend.map((e, i) => <li key={i}><span className="sw" style={{ background: e.color }} aria-hidden="true" />{e.label}</li>)}
        <li className="nodata"><span className="sw sw-nodata" aria-hidden="true" />No value in the source</li>
      </ul>
      <p className="muted small">{choro.pairs.length} countries · {source}</p>
    </>
  );
}

/** What the fold button says beside the year or years: "change" while a change is mapped (the line reads "2000–2010 change"), else nothing (an arrow). */
function foldLabel(change: ChangeChoice | undefined): string {
  return change?.change ? 'change' : '';
}

/**
 * Folded or not: a phone starts folded and folds again when the layout becomes a phone's (a
 * desktop's is never folded); the user's unfold holds until then.
 */
function useFold(collapsed: boolean): [boolean, (f: boolean) => void] {
  const [folded, setFolded] = useState(collapsed);
  useEffect(() => setFolded(collapsed), [collapsed]);
  return [folded, setFolded];
}

/**
 * The control: in a legend box of its own with the classes for a national series, else the
 * control and the change choice alone (the caller boxes them). `collapsed` (a phone): one line,
 * the play button, the slider (keyboard as ever) and the year or years, with a button that
 * unfolds the change choice; the link's `year`, `chg` and `yfrom` are kept either way.
 */
export function YearControl({ years, year, onYear, change, national, collapsed = false }: YearControlProps) {
  const [playing, setPlaying] = useState(false);
  const [folded, setFolded] = useFold(collapsed);
  const uid = useId();
  const i = Math.max(0, years.indexOf(year));
  usePlay(playing, years, year, onYear, () => setPlaying(false));
  const toggle = () => {
    if (!playing && nextYear(years, year) === null && years.length > 1) onYear(years[0]); // from the start again
    setPlaying(!playing);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => { if (e.key === ' ') { e.preventDefault(); toggle(); } };
  const hasRow = !!change && years.length > 1;
  const control = (
    <div className="year-control" role="group" aria-label="Year of the series" data-testid="year-control">
      <button type="button" className="ghost small play" onClick={toggle} aria-pressed={playing} aria-label={playing ? 'Pause the years' : 'Play the years'} disabled={years.length < 2}>{playing ? '❚❚' : '▶'}</button>
      <input id={`${uid}-y`} type="range" min={0} max={Math.max(0, years.length - 1)} step={1} value={i} aria-label="Year" aria-valuetext={String(year)}
        aria-keyshortcuts="Space" onChange={(e) => onYear(years[Number(e.target.value)])} onKeyDown={onKey} />
      <output htmlFor={`${uid}-y`} className="year-value" data-testid="year-value">{change?.change && change.from !== null ? `${Math.min(change.from, year)}–${Math.max(change.from, year)}` : year}</output>
      {collapsed && hasRow && (
        <button type="button" className="ghost small year-fold" data-testid="year-fold" aria-expanded={!folded} aria-controls={`${uid}-c`}
          aria-label={`${folded ? 'Show' : 'Fold'} the change choice${change?.change ? ` (mapped: ${change.change === 'pct' ? 'change (%)' : 'change (difference)'})` : ''}`} onClick={() => setFolded(!folded)}>
          {foldLabel(change) && `${foldLabel(change)} `}<span aria-hidden="true">{folded ? '▸' : '▾'}</span>
        </button>
      )}
    </div>
  );
  const row = hasRow ? <div id={`${uid}-c`} hidden={collapsed && folded}><ChangeRow years={years} c={change!} /></div> : null;
  if (!national) return <>{control}{row}</>;
  const c = national.choro;
  // the classes fold away (a phone starts with them closed); the year control always shows
  return (
    <div className="legend series-legend" role="group" aria-label="Series legend">
      <details open={!collapsed}>
        <summary><h3>{c ? c.title : 'Loading the series…'}{c?.unit ? <span className="muted"> ({c.unit})</span> : null}</h3></summary>
        {c && <NationalLegend choro={c} source={national.source} />}
      </details>
      {control}
      {row}
    </div>
  );
}
