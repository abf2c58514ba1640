/** Indicator card: the full metadata record of the selected indicator. */
import type { VarRecord } from '../core/types';

/** Shows every field of a catalog record people need: unit, period, method, source, citation, licence. */
export function IndicatorCard({ rec }: { rec: VarRecord }) {
  const period = rec.year && rec.yearEnd && rec.yearEnd !== rec.year ? `${rec.year}–${rec.yearEnd}` : rec.year || '—';
  const rows: Array<[string, string]> = [
    ['Code', rec.varCode],
    ['Title', rec.varTitle],
    ['Unit', rec.unit || '—'],
    ['Type', rec.type],
    ['Period', period],
    ['Category', [rec.cat1, rec.cat2, rec.cat3].filter(Boolean).join(' › ')],
    ['Aggregation', rec.aggFunR],
    ['Source', rec.sources || rec.sourceMini],
    ['Contact', rec.owner],
    ['Licence', rec.license],
    ['Citation', rec.citation],
    ['Version', [rec.version, rec.published].filter(Boolean).join(', published ')],
  ];
  return (
    <article className="card" aria-labelledby="card-title">
      <h2 id="card-title">{rec.varLabel}</h2>
      {rec.varDesc && <p className="desc">{rec.varDesc}</p>}
      <dl>
        {rows.filter(([, v]) => v).map(([k, v]) => (
          <div key={k}><dt>{k}</dt><dd>{k === 'Code' || k === 'Aggregation' ? <code>{v}</code> : v}</dd></div>
        ))}
      </dl>
    </article>
  );
}
