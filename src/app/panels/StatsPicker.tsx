/** The Statistics picker as the panels place it: its code loads on first render (its own chunk, out of the first load). */
import { lazyRetry } from '../../ui/lazy-retry';
import { Loadable } from '../../ui/Loadable';
import type { PanelCtx } from './common';

const ZonalPicker = lazyRetry(() => import('./ZonalPicker').then((m) => m.ZonalPicker));

/** The picker (./ZonalPicker.tsx), loaded on first render; `idPrefix` keeps its field ids unique per panel. */
export function StatsPicker({ ctx, idPrefix }: { ctx: PanelCtx; idPrefix: string }) {
  return (
    <Loadable what="the statistics picker" loading={<p className="muted small">Loading the statistics…</p>}>
      <ZonalPicker ctx={ctx} idPrefix={idPrefix} />
    </Loadable>
  );
}
