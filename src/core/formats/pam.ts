/**
 * GDAL PAM side-car (`<raster>.aux.xml`) text: no-data value, category names, colour
 * table, band description and unit.
 *
 * Format: GDAL Persistent Auxiliary Metadata (https://gdal.org/user/raster_data_model.html
 * and GDAL's `gcore/gdalpamrasterband.cpp`): `<PAMDataset><PAMRasterBand band="1">` with
 * `<Description>`, `<UnitType>`, `<NoDataValue>`, `<CategoryNames><Category>..</Category>`
 * (index = pixel value), `<ColorInterp>Palette</ColorInterp>` and
 * `<ColorTable><Entry c1= c2= c3= c4=/>`, `<GDALRasterAttributeTable>` (GDAL's
 * `GDALDefaultRasterAttributeTable::Serialize`: `<FieldDefn>` with `<Name>`, `<Type>`
 * 0 integer / 1 real / 2 string and `<Usage>` GFU_* code, then `<Row><F>..</F></Row>`),
 * and `<Metadata><MDI key="..">`.
 *
 * Class layers of tif/asc hold 0-based class indices (as the original service wrote them),
 * while grd, dta and rds hold the catalog class values: the attribute table written here
 * maps one to the other (`value` = pixel value = index, `class_value` = catalog value,
 * `label`), so `gdalinfo` and QGIS show it and users can translate.
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
  /**
   * Thematic raster attribute table of a class layer: per class its pixel value (`value`,
   * the 0-based index), its catalog class value (`class_value`) and its `label`.
   */
  rat?: Array<{ index: number; value: number; label: string }>;
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
    if (b.rat) {
      // Usage codes: 5 GFU_MinMax (the pixel value of a thematic table), 0 GFU_Generic, 2 GFU_Name.
      out.push('    <GDALRasterAttributeTable tableType="thematic">');
      out.push('      <FieldDefn index="0"><Name>value</Name><Type>0</Type><Usage>5</Usage></FieldDefn>');
      out.push('      <FieldDefn index="1"><Name>class_value</Name><Type>0</Type><Usage>0</Usage></FieldDefn>');
      out.push('      <FieldDefn index="2"><Name>label</Name><Type>2</Type><Usage>2</Usage></FieldDefn>');
      b.rat.forEach((r, k) => out.push(`      <Row index="${k}"><F>${r.index}</F><F>${Math.round(r.value)}</F><F>${xmlEscape(r.label)}</F></Row>`));
      out.push('    </GDALRasterAttributeTable>');
    }
    md(b.metadata, '    ');
    out.push('  </PAMRasterBand>');
  });
  out.push('</PAMDataset>');
  return out.join('\n') + '\n';
}
