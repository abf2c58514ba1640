/**
 * GDAL PAM side-car (`<raster>.aux.xml`) text: no-data value, category names, colour
 * table, band description and unit.
 *
 * Format: GDAL Persistent Auxiliary Metadata (https://gdal.org/user/raster_data_model.html
 * and GDAL's `gcore/gdalpamrasterband.cpp`): `<PAMDataset><PAMRasterBand band="1">` with
 * `<Description>`, `<UnitType>`, `<NoDataValue>`, `<CategoryNames><Category>..</Category>`
 * (index = pixel value), `<ColorInterp>Palette</ColorInterp>` and
 * `<ColorTable><Entry c1= c2= c3= c4=/>`, and `<Metadata><MDI key="..">`.
 */
import { xmlEscape } from './bytes';
import { parseHex } from './tiff';

/** Content of one band's PAM entry. */
export interface PamBand {
  /** Band description (layer code and label). */
  description?: string;
  /** Unit of the values. */
  unit?: string;
  /** No-data value. */
  noData?: number;
  /** Category names, index = pixel value. */
  categories?: string[];
  /** Colour table `#rrggbb`, index = pixel value (written only with categories). */
  colors?: Array<string | undefined>;
  /** Extra metadata items. */
  metadata?: Record<string, string>;
}

/**
 * PAM XML for one or more bands.
 * @param bands one entry per band, band numbers from 1
 * @param datasetMetadata dataset-level metadata items
 */
export function pamXml(bands: PamBand[], datasetMetadata?: Record<string, string>): string {
  const out: string[] = ['<PAMDataset>'];
  const md = (m: Record<string, string> | undefined, indent: string) => {
    if (!m || Object.keys(m).length === 0) return;
    out.push(`${indent}<Metadata>`);
    for (const [k, v] of Object.entries(m)) out.push(`${indent}  <MDI key="${xmlEscape(k)}">${xmlEscape(v)}</MDI>`);
    out.push(`${indent}</Metadata>`);
  };
  md(datasetMetadata, '  ');
  bands.forEach((b, i) => {
    out.push(`  <PAMRasterBand band="${i + 1}">`);
    if (b.description) out.push(`    <Description>${xmlEscape(b.description)}</Description>`);
    if (b.unit) out.push(`    <UnitType>${xmlEscape(b.unit)}</UnitType>`);
    if (b.noData !== undefined) out.push(`    <NoDataValue>${b.noData}</NoDataValue>`);
    if (b.categories) {
      out.push('    <CategoryNames>');
      for (const c of b.categories) out.push(`      <Category>${xmlEscape(c)}</Category>`);
      out.push('    </CategoryNames>');
      if (b.colors) {
        out.push('    <ColorInterp>Palette</ColorInterp>');
        out.push('    <ColorTable>');
        for (let k = 0; k < b.categories.length; k++) {
          const [r, g, bl] = parseHex(b.colors[k]);
          out.push(`      <Entry c1="${r}" c2="${g}" c3="${bl}" c4="255"/>`);
        }
        out.push('    </ColorTable>');
      }
    }
    md(b.metadata, '    ');
    out.push('  </PAMRasterBand>');
  });
  out.push('</PAMDataset>');
  return out.join('\n') + '\n';
}
