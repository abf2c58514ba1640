/**
 * The map's read-out of the cell under the pointer (or the tapped cell on a touch screen):
 * its value, CELL5M, country, first-level unit and centre; over a choropleth also the value of
 * the unit under the pointer.
 */
import type { VarRecord } from '../core/types';
import type { CellInfo } from '../../workers/protocol/raster';
import type { Choro } from './result-layers';
import { fmtNum, prettyUnit } from './panels/common';

/**
 * A cell's value as shown: "no data", a class label with its code ("Highland (3)"), or the
 * number at the indicator's decimals with its unit ("1,606 m").
 */
export function fmtValue(info: CellInfo, rec: VarRecord | undefined): string {
  if (typeof info.value !== 'number' || Number.isNaN(info.value)) return 'no data';
  if (info.valueLabel) return `${info.valueLabel} (${info.value})`;
  return `${fmtNum(info.value, rec ? rec.dec : 2)}${rec?.unit ? ` ${prettyUnit(rec.unit)}` : ''}`;
}

/** Props of {@link HoverInfo}. */
export interface HoverInfoProps {
  /** The cell under the pointer, or null (then a hint is shown). */
  hover: CellInfo | null;
  /** The choropleth on the map, if any: its unit's value is shown first. */
  choro: Choro | null;
  /** The mapped indicator's record (decimals and unit of the cell's value). */
  rec: VarRecord | undefined;
  /** Touch-first device: the hint says "Tap" instead of "Hover". */
  coarse: boolean;
  /**
   * The map draws cells under the choropleth (default true). False for a national series,
   * drawn only as countries: its value is the country's, and a "Cell: no data" row would say
   * the place has none.
   */
  cells?: boolean;
}

/** The hover read-out box of the map (an ARIA live region). */
export function HoverInfo({ hover, choro, rec, coarse, cells = true }: HoverInfoProps) {
  // the unit under the pointer: the raster value of the choropleth's key layer (ADM1_NAME_ALT / ADM2_NAME_ALT), or the country's ISO3
  const unit = choro && hover ? (choro.level === 0 ? hover.iso3 ?? undefined : choro.level === 2 ? hover.adm2Value : hover.adm1Value) : undefined;
  return (
    <div className="overlay tl-info" aria-live="polite" data-testid="hover-info">
      {hover ? (
        <dl className="info">
          {choro && unit !== undefined ? (<>
            <div title={choro.code}><dt>{cells ? 'Unit' : 'National value'}</dt><dd data-testid="hover-value">{choro.values.has(unit) ? `${fmtNum(choro.values.get(unit)!, choro.dec)}${choro.unit ? ` ${choro.unit}` : ''}` : 'not in the result'}</dd></div>
            {cells && <div><dt>Cell</dt><dd>{fmtValue(hover, rec)}</dd></div>}
          </>) : <div><dt>Value</dt><dd data-testid="hover-value">{fmtValue(hover, rec)}</dd></div>}
          <div><dt>CELL5M</dt><dd>{hover.cell5m}</dd></div>
          <div><dt>Country</dt><dd>{hover.country ? `${hover.country} (${hover.iso3})` : '—'}</dd></div>
          <div><dt>ADM1</dt><dd>{hover.adm1 ?? '—'}</dd></div>
          {choro?.level === 2 && <div><dt>ADM2</dt><dd>{hover.adm2 ?? '—'}</dd></div>}
          <div><dt>Centre</dt><dd>{hover.lon.toFixed(4)}, {hover.lat.toFixed(4)}</dd></div>
        </dl>
      ) : <p className="muted small">{coarse ? 'Tap the map for values and to pick a place.' : 'Hover the map for values; click to pick a place.'}</p>}
    </div>
  );
}
