/**
 * Writers of the per-cell result as rasters: tif (GeoTIFF + .tfw + .tif.aux.xml per var),
 * asc (ESRI ASCII grid + .prj + .asc.aux.xml per var), grd (one .grd/.gri of all vars), then
 * meta.csv, README.md, datapackage.json and DESCRIPTION. See ../index.ts for the class coding.
 */
import type { CellLayer, CellResult, GeneratedFile } from '../../api';
import { throwIfAborted } from '../../errors';
import type { ClassEntry, VarRecord } from '../../types';
import { ascText, ESRI_PRJ_WGS84 } from '../asc';
import { writeGrd, type GrdBand } from '../grd';
import { dataFileBase } from '../names';
import { pamXml } from '../pam';
import type { ClassCoding } from '../pkg';
import { classCodes, classColors, classIndices, maskedValues, windowGeo, type WindowGeo } from '../raster';
import type { FormatWriter } from '../types';
import { worldFile, writeGeoTiff } from '../tiff';
import { fileOf, packageContext, recordOf, sideFiles, type PackageContext } from './common';

function layerLabel(rec: VarRecord | undefined, code: string): string {
  return rec ? `${code}: ${rec.varLabel}${rec.unit ? ` (${rec.unit})` : ''}` : code;
}

/** Class coding of a class layer for the README: the classes present in the selection, in index order. */
function classCoding(code: string, classes: ClassEntry[], index: Int32Array): ClassCoding {
  const present = new Set<number>();
  for (const k of index) if (k >= 0) present.add(k);
  return { code, classes: classes.map((c, k) => ({ index: k, value: Number(c.value), label: String(c.label) })).filter((c) => present.has(c.index)) };
}

/** The .grd/.gri pair of all layers as bands. */
function grdFiles(cells: CellResult, geo: WindowGeo, p: PackageContext): GeneratedFile[] {
  const bands: GrdBand[] = cells.layers.map((layer) => {
    const values = maskedValues(layer, cells.mask);
    if (layer.type !== 'class') return { name: layer.code, values };
    const { classes, index } = classIndices(layer, cells.mask);
    p.info.classLayers?.push(classCoding(layer.code, classes, index));
    return { name: layer.code, values, classes: classes.map((c) => ({ value: Number(c.value), label: String(c.label) })) };
  });
  const { grd, gri } = writeGrd(geo, bands, p.now);
  return [fileOf(`${p.base}.grd`, grd), fileOf(`${p.base}.gri`, gri)];
}

/** The tif or asc files of one layer: raster, georeferencing side file, GDAL PAM side-car. */
function layerFiles(format: string, method: string, cells: CellResult, layer: CellLayer, geo: WindowGeo, p: PackageContext): GeneratedFile[] {
  const rec = recordOf(p.meta, layer.code);
  const b = dataFileBase(method, p.codes, [layer.code]);
  const description = layer.code;
  const md: Record<string, string> = { CODE: layer.code, LABEL: layerLabel(rec, layer.code) };
  if (p.codes.by.length) md.VALUES = `summary of each cell's group by ${p.codes.by.join(', ')} (a zonal map: the group's value repeats over its cells), not the cell's own value`;
  const n = geo.width * geo.height;
  if (layer.type === 'class') {
    const { classes, index, padding } = classCodes(layer, cells.mask);
    const names = classes.map((c) => String(c.label));
    const colors = classColors(classes, rec);
    const rat = classes.map((c, k) => ({ index: k, value: Number(c.value), label: String(c.label) })).filter((_, k) => !padding[k]);
    p.info.classLayers?.push(classCoding(layer.code, classes, index));
    if (format === 'tif') {
      const byte = classes.length <= 255;
      const data = byte ? new Uint8Array(n) : new Uint16Array(n);
      const nd = byte ? 255 : 65535;
      for (let i = 0; i < n; i++) data[i] = index[i] < 0 ? nd : index[i];
      const tif = writeGeoTiff({ width: geo.width, height: geo.height, data, sampleType: byte ? 'Byte' : 'UInt16', xmin: geo.xmin, ymax: geo.ymax, cellSize: geo.cellSize, noData: nd, palette: byte ? colors.map((c) => c ?? '#bebebe') : undefined, description: md.LABEL });
      return [fileOf(`${b}.tif`, tif), fileOf(`${b}.tfw`, worldFile(geo.xmin, geo.ymax, geo.cellSize)), fileOf(`${b}.tif.aux.xml`, pamXml([{ description, noData: nd, categories: names, rat, metadata: md }]))];
    }
    const vals = Float64Array.from(index, (x) => (x < 0 ? NaN : x));
    return [fileOf(`${b}.asc`, ascText(geo, vals, -9999, true)), fileOf(`${b}.prj`, ESRI_PRJ_WGS84), fileOf(`${b}.asc.aux.xml`, pamXml([{ description, noData: -9999, categories: names, colors, rat, metadata: md }]))];
  }
  const values = maskedValues(layer, cells.mask);
  const unit = rec?.unit || undefined;
  if (format === 'tif') {
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = Number.isNaN(values[i]) ? -9999 : values[i];
    const tif = writeGeoTiff({ width: geo.width, height: geo.height, data, sampleType: 'Float32', xmin: geo.xmin, ymax: geo.ymax, cellSize: geo.cellSize, noData: -9999, description: md.LABEL });
    return [fileOf(`${b}.tif`, tif), fileOf(`${b}.tfw`, worldFile(geo.xmin, geo.ymax, geo.cellSize)), fileOf(`${b}.tif.aux.xml`, pamXml([{ description, unit, noData: -9999, metadata: md }]))];
  }
  return [fileOf(`${b}.asc`, ascText(geo, values, -9999)), fileOf(`${b}.prj`, ESRI_PRJ_WGS84), fileOf(`${b}.asc.aux.xml`, pamXml([{ description, unit, noData: -9999, metadata: md }]))];
}

/** What each raster file is, for datapackage.json. */
const WHAT: Record<string, string> = {
  tif: 'GeoTIFF raster (EPSG:4326, 5-arc-minute cells); world file .tfw and GDAL side-car .tif.aux.xml alongside.',
  asc: 'ESRI ASCII grid (EPSG:4326, 5-arc-minute cells); .prj and GDAL side-car .asc.aux.xml alongside.',
  grd: 'R raster package header (.grd) of the bands in the .gri file.',
  gri: 'R raster package data (.gri, band interleaved by line) described by the .grd header.',
};

/**
 * The writer of a raster format (tif, asc, grd). With `by`, cells hold their group's summary
 * (a zonal map), as README.md and the `.aux.xml` metadata item `VALUES` say.
 * @param format the normalised format name
 */
export function write(format: string): FormatWriter {
  return async (input, { signal, onProgress }) => {
    const cells = input.cells as CellResult;
    const p = packageContext(input, format);
    const geo = windowGeo(cells.grid);
    const total = cells.layers.length + 1;
    p.info.classLayers = [];
    const files: GeneratedFile[] = [];
    if (format === 'grd') {
      files.push(...grdFiles(cells, geo, p));
      onProgress?.(cells.layers.length, total);
    } else {
      for (const [k, layer] of cells.layers.entries()) {
        throwIfAborted(signal);
        files.push(...layerFiles(format, input.method, cells, layer, geo, p));
        onProgress?.(k + 1, total);
      }
    }
    // datapackage.json resources: the rasters (tif, asc, grd + gri), then meta.csv
    const zonalNote = p.codes.by.length ? ` With by, each cell holds the summary of its group (${p.codes.by.join(', ')}), not its own value.` : '';
    for (const f of files) {
      const ext = f.name.split('.').pop() as string;
      if (!WHAT[ext] || f.name.endsWith('.aux.xml')) continue;
      p.info.dataFiles.push({ name: f.name, mediaType: f.mediaType, format: ext, description: WHAT[ext] + zonalNote });
    }
    files.push(...sideFiles(p, files, false));
    onProgress?.(total, total);
    return { files };
  };
}
