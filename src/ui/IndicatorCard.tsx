/** Indicator card: the full metadata record of the selected indicator. */
import type { VarRecord } from '../core/types';

/**
 * Shows the fields people need first (unit, period, source, aggregation, licence), then
 * the rest of the record, and the long description with the method, collapsible.
 */
export function IndicatorCard({ rec }: { rec: VarRecord }) {
  const period = rec.year && rec.yearEnd && rec.yearEnd !== rec.year ? `${rec.year}–${rec.yearEnd}` : rec.year || '—';
  const rows: Array<[string, string]> = [
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
  return (
    <article className="card" aria-labelledby="card-title">
      <h2 id="card-title" tabIndex={-1}>{rec.varLabel}</h2>
      <dl>
        {rows.filter(([, v]) => v).map(([k, v]) => (
          <div key={k}><dt>{k}</dt><dd>{k === 'Code' || k === 'Aggregation' ? <code>{v}</code> : v}</dd></div>
        ))}
      </dl>
      {rec.varDesc && (
        <details className="method" key={rec.varCode}>
          <summary>Description and method</summary>
          <p className="desc">{rec.varDesc}</p>
        </details>
      )}
    </article>
  );
}
