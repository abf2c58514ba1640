/**
 * Writers of graphics: plot (a map per var, with `by` a zonal map) and hist (a histogram
 * with summary statistics per var), each as `.svg` + `.png` files and session graphics.
 */
import type { CellResult, GeneratedFile, Graphic } from '../../api';
import { IndapiError, throwIfAborted } from '../../errors';
import { isAdmin1Code, isAdmin2Code, renderHist, renderPlot, type Basemap } from '../graphics';
import { dataFileBase } from '../names';
import type { FormatWriter } from '../types';
import { fileOf, packageContext, recordOf } from './common';

/** Outlines from a value or a loader (a failed loader gives none). */
async function outlines(b: Basemap | (() => Promise<Basemap | undefined>) | undefined, quiet: boolean): Promise<Basemap | undefined> {
  if (typeof b !== 'function') return b;
  return quiet ? b().catch(() => undefined) : b();
}

/**
 * The writer of plot or hist.
 * @param format "plot" or "hist"
 * @throws IndapiError INTERNAL without a rasterizer (the input's own or its runtime's `graphics`)
 */
export function write(format: string): FormatWriter {
  return async (input, { signal, onProgress }) => {
    const d = input.graphics ?? {};
    const rasterize = input.rasterize ?? d.rasterize;
    if (!rasterize) throw new IndapiError('INTERNAL', `genFile: format '${format}' needs a rasterizer (a runtime with createResvgRasterizer) to draw PNG.`);
    const cells = input.cells as CellResult;
    const { codes, meta, now } = packageContext(input, format);
    const basemap = input.basemap ?? (await outlines(d.basemap, false));
    // plot with by: a zonal map (hist never gets the by domains, see the registry's cellArgs).
    const by = format === 'plot' ? codes.by.map((code) => ({ code, rec: recordOf(meta, code) })) : [];
    const admin1 = by.some((b) => isAdmin1Code(b.code)) ? (input.admin1 ?? (await outlines(d.admin1, true))) : undefined;
    const admin2 = by.some((b) => isAdmin2Code(b.code)) ? (input.admin2 ?? (await outlines(d.admin2, true))) : undefined;
    const files: GeneratedFile[] = [];
    const graphics: Graphic[] = [];
    for (const [k, layer] of cells.layers.entries()) {
      throwIfAborted(signal);
      const rec = recordOf(meta, layer.code);
      const svg =
        format === 'plot'
          ? renderPlot({ cells, layer, rec, basemap, admin1, admin2, by, pal: input.query.pal, now })
          : await renderHist({ cells, layer, rec, now });
      const png = await rasterize(svg, signal);
      graphics.push({ svg, png });
      const b = dataFileBase(input.method, codes, [layer.code]);
      // Named after the kind of graphic too, so plot and hist packages unzip side by side.
      files.push(fileOf(`${b}-${format}.svg`, svg), fileOf(`${b}-${format}.png`, png));
      onProgress?.(k + 1, cells.layers.length);
    }
    return { files, graphics };
  };
}
