/**
 * The left side of the shell: the catalog browser and the selected indicator's card (a drawer
 * on a phone, closed by Escape or its Close button, and after a choice).
 */
import type { VarRecord } from '../core/types';
import { CatalogBrowser } from '../ui/CatalogBrowser';
import { IndicatorCard } from '../ui/IndicatorCard';
import type { BundleData } from './useBundleData';

/** Props of {@link CatalogDrawer}. */
export interface CatalogDrawerProps {
  data: BundleData;
  /** The mapped indicator's code, or null. */
  selected: string | null;
  /** Its record, once the catalog knows it. */
  rec: VarRecord | undefined;
  /** An indicator was chosen. */
  onSelect: (code: string) => void;
  /** Phone layout: the drawer has a heading with a Close button. */
  phone: boolean;
  /** The drawer is open (phone) and its setter. */
  drawer: boolean;
  setDrawer: (open: boolean) => void;
}

/** The catalog side. */
export function CatalogDrawer({ data, selected, rec, onSelect, phone, drawer, setDrawer }: CatalogDrawerProps) {
  return (
    <aside className="left" aria-label="Catalog" id="catalog-drawer" onKeyDown={(e) => { if (e.key === 'Escape' && drawer) setDrawer(false); }}>
      {phone && <p className="row space drawer-head"><strong>Catalog</strong><button type="button" className="ghost small" onClick={() => setDrawer(false)}>Close</button></p>}
      {data.error && <p className="msg error" role="alert">Cannot load the catalog: {data.error.message}</p>}
      <CatalogBrowser loading={data.loading} records={data.catalog} series={data.series} selected={selected} onSelect={onSelect} />
      {rec && <IndicatorCard rec={rec} series={data.series.get(rec.varCode)} />}
    </aside>
  );
}
