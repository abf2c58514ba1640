/**
 * The within / per-band switch of a catchment's figures: one control drawn in the Catchment
 * panel (table and charts) and on the map legend, both bound to the one state of
 * useResultLayers.ts, so switching either switches the table, the charts and the legend.
 */
import type { BandView } from './catchment-layer';

/** Props of {@link BandViewSwitch}. */
export interface BandViewSwitchProps {
  /** The view shown. */
  view: BandView;
  /** Sets it (for the table, the charts and the map legend at once). */
  onView: (v: BandView) => void;
  /** Name of the radio group: unique in the page (the panel and the legend each draw one). */
  name: string;
  /** Accessible name of the group, e.g. "Figures shown". */
  label: string;
  /** Test id of the group. */
  testId: string;
}

/** Two radio buttons: "Within each time" and "Per band". */
export function BandViewSwitch({ view, onView, name, label, testId }: BandViewSwitchProps) {
  return (
    <div className="seg" role="radiogroup" aria-label={label} data-testid={testId}>
      <label><input type="radio" name={name} checked={view === 'within'} onChange={() => onView('within')} /> Within each time</label>
      <label><input type="radio" name={name} checked={view === 'band'} onChange={() => onView('band')} /> Per band</label>
    </div>
  );
}
