/**
 * R `raster` package native format writer: a text header `.grd` and a binary `.gri`,
 * all layers as bands, FLT4S little-endian, band-interleaved by line (BIL).
 *
 * Format: as `raster::writeRaster(x, "f.grd")` (raster 3.6) writes it, see the package's
 * `R/writeRasterHdr.R` and vignette "Description of the raster package" (section
 * "rasterfile"). Sections `[general]`, `[georeference]`, `[data]`, `[legend]`,
 * `[description]`; `layername` joins band names with `:`; no data is written as NaN with
 * `nodatavalue=-3.4e+38` (what raster writes for FLT4S). `creator` names the real producer
 * (`indapi3`); readers do not check it (`raster`, `terra` and GDAL's RRASTER driver, which
 * reports it as the CREATOR metadata item, read the file the same).
 *
 * Class bands hold the catalog class values (not the 0-based indices of tif/asc). A single
 * class band also gets `categorical=TRUE` and its attribute table (`ratnames=ID:<code>`,
 * `rattypes`, `ratvalues`), which `raster::raster()` reads back as levels and `terra::rast()`
 * as categories; the label column is named with the band's code because terra names the
 * layer after the active category column (a column `label` would rename the layer `label`).
 *
 * Limitation of the format: a `.grd` has one attribute table per file, which readers (R
 * `raster`, `terra` through GDAL's RRASTER driver) apply to every band, and GDAL ignores a
 * `.grd.aux.xml` side-car for this driver; `raster::writeRaster` itself writes no levels for
 * a multi-layer brick with factor layers. So the class bands of a multi-band grd carry no
 * labels: the package README.md lists each class layer's value -> label table instead.
 */
import { ByteWriter, fmtNum } from './bytes';
import { PRODUCER } from './pkg';
import type { WindowGeo } from './raster';

/** One band of a grd file. */
export interface GrdBand {
  /** Band (layer) name. */
  name: string;
  /** One value per cell, row-major north first; NaN = no data. */
  values: ArrayLike<number>;
  /** For class bands: value and label of each class (written as levels only when the file has this one band). */
  classes?: Array<{ value: number; label: string }>;
}

function fmtCreated(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Builds the `.grd` header and `.gri` data.
 * @param geo window georeferencing
 * @param bands bands in order
 * @param created creation time
 * @returns header text and binary data
 */
export function writeGrd(geo: WindowGeo, bands: GrdBand[], created: Date): { grd: string; gri: Uint8Array } {
  const n = geo.width * geo.height;
  const mins: string[] = [];
  const maxs: string[] = [];
  const w = new ByteWriter(true, n * bands.length * 4 + 16);
  for (const b of bands) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = Math.fround(b.values[i]);
      if (Number.isNaN(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    mins.push(lo <= hi ? fmtNum(lo) : 'Inf');
    maxs.push(lo <= hi ? fmtNum(hi) : '-Inf');
  }
  for (let r = 0; r < geo.height; r++) {
    for (const b of bands) {
      for (let c = 0; c < geo.width; c++) w.f32(b.values[r * geo.width + c]);
    }
  }
  const lines = [
    '[general]',
    `creator=${PRODUCER}`,
    `created=${fmtCreated(created)}`,
    '[data]',
    'datatype=FLT4S',
    'byteorder=little',
    `nbands=${bands.length}`,
    'bandorder=BIL',
  ];
  const only = bands.length === 1 ? bands[0] : undefined;
  if (only?.classes) {
    const cls = only.classes;
    lines.push('categorical=TRUE', `ratnames=ID:${only.name.replace(/[:\r\n]/g, '_')}`, 'rattypes=integer:character', `ratvalues=${[...cls.map((c) => String(c.value)), ...cls.map((c) => c.label.replace(/[:\r\n]/g, ' '))].join(':')}`);
  }
  lines.push(
    `minvalue=${mins.join(':')}`,
    `maxvalue=${maxs.join(':')}`,
    'nodatavalue=-3.4e+38',
    '[legend]',
    'legendtype=',
    'values=',
    'color=',
    '[description]',
    `layername=${bands.map((b) => b.name.replace(/[:\r\n]/g, '_')).join(':')}`,
    '[georeference]',
    `nrows=${geo.height}`,
    `ncols=${geo.width}`,
    `xmin=${fmtNum(geo.xmin)}`,
    `ymin=${fmtNum(geo.ymin)}`,
    `xmax=${fmtNum(geo.xmax)}`,
    `ymax=${fmtNum(geo.ymax)}`,
    'projection=+proj=longlat +datum=WGS84 +no_defs',
  );
  return { grd: lines.join('\n') + '\n', gri: w.result() };
}
