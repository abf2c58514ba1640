/** Indicator card: the full metadata record of the selected indicator. */
import type { ReactNode } from 'react';
import type { VarRecord } from '../core/types';
import { VI_FIELDS } from '../core/bundle';
import { NATIONAL_NOTE, yearRangeText, type SeriesInfo } from './series-info';

const KNOWN = new Set<string>(VI_FIELDS as string[]);

/**
 * The fields of a record beyond the vi.csv fields ({@link VI_FIELDS}): extra columns of an
 * ingested catalog kept on the record, as [name, text] pairs in record order. Extra columns
 * kept in a nested object (e.g. `extra: { COL: "..." }`) are listed by their own names.
 */
export function extraFields(rec: VarRecord): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(rec)) {
    if (KNOWN.has(k) || v === undefined || v === null || v === '') continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) if (v2 !== undefined && v2 !== null && v2 !== '') out.push([k2, String(v2)]);
    } else out.push([k, Array.isArray(v) ? v.join(' | ') : String(v)]);
  }
  return out;
}

const LINK_RE = /(https?:\/\/[^\s<>"]+[^\s<>".,;:)\]])|(?:doi:\s?|\b)(10\.\d{4,9}\/[^\s<>"]+[^\s<>".,;:)\]])/gi;

/** Text with its URLs and DOIs (doi:10.x/..., 10.x/...) as links (DOIs to https://doi.org/). */
export function linkify(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(LINK_RE)) {
    const i = m.index ?? 0;
    if (i > last) out.push(text.slice(last, i));
    const href = m[1] ? m[1] : `https://doi.org/${m[2]}`;
    out.push(<a key={i} href={href} target="_blank" rel="noopener noreferrer">{m[0]}</a>);
    last = i + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * The card's series line: "Yearly series 1950–2017 (68 years); national value, no variation
 * within the country" for a national series, "Yearly series WPOP: 2000–2010 (3 years)" for a
 * gridded one; '' when the record is not a series.
 */
export function seriesLine(s: SeriesInfo | undefined): string {
  if (!s) return '';
  const n = `${s.years.length} year${s.years.length === 1 ? '' : 's'}`;
  return s.kind === 'national' ? `Yearly series ${yearRangeText(s.years)} (${n}); ${NATIONAL_NOTE}` : `Yearly series ${s.stem}: ${yearRangeText(s.years)} (${n}: ${s.years.join(', ')})`;
}

/**
 * Shows the fields people need first (series, unit, period, source, aggregation, licence), then
 * the rest of the record, the long description with the method, and every field of the
 * original catalog record under "All fields" (field names as in the catalog), collapsible.
 */
export function IndicatorCard({ rec, series }: { rec: VarRecord; series?: SeriesInfo }) {
  const period = rec.year && rec.yearEnd && rec.yearEnd !== rec.year ? `${rec.year}–${rec.yearEnd}` : rec.year || '—';
  const rows: Array<[string, string]> = [
    ['Series', seriesLine(series)],
    ['Unit', rec.unit || '—'],
    ['Period', period],
    ['Source', rec.sources || rec.sourceMini],
    ['Aggregation', rec.aggFunR],
    ['Licence', rec.license],
    ['Code', rec.varCode],
    ['Title', rec.varTitle],
    ['Type', rec.type],
    ['Category', [rec.cat1, rec.cat2, rec.cat3].filter(Boolean).join(' › ')],
    ['Contact', rec.owner],
    ['Citation', rec.citation],
    ['Version', [rec.version, rec.published].filter(Boolean).join(', published ')],
  ];
  const all: Array<[string, string]> = [
    ...VI_FIELDS.map((f) => [f, String(rec[f] ?? '')] as [string, string]).filter(([, v]) => v !== ''),
    ...extraFields(rec),
  ];
  const extras = extraFields(rec).length;
  return (
    <article className="card" aria-labelledby="card-title">
      <h2 id="card-title" tabIndex={-1}>{rec.varLabel}</h2>
      <dl>
        {rows.filter(([, v]) => v).map(([k, v]) => (
          <div key={k}><dt>{k}</dt><dd>{k === 'Code' || k === 'Aggregation' ? <code>{v}</code> : linkify(v)}</dd></div>
        ))}
      </dl>
      {rec.varDesc && (
        <details className="method" key={rec.varCode}>
          <summary>Description and method</summary>
          <p className="desc">{linkify(rec.varDesc)}</p>
        </details>
      )}
      <details className="allfields" key={`all-${rec.varCode}`}>
        <summary>All fields ({all.length}{extras ? `, ${extras} beyond the standard ones` : ''})</summary>
        <dl>
          {all.map(([k, v]) => (
            <div key={k}><dt><code>{k}</code></dt><dd>{linkify(v)}</dd></div>
          ))}
        </dl>
      </details>
    </article>
  );
}
