/**
 * Column decisions of a table ingest after the read pass (./index.ts): class tables of key
 * layers and class columns (text, numeric codes by the record's conventions, issue 15 item 4),
 * type findings (mixed numbers and text, text in a continuous column, non-integer classes,
 * unlabelled classes, too many classes), sample types (continuous columns: scaled Int16/Int32
 * when every value has at most 9 decimals and fits, else Float32 or Float64, so values read back
 * exactly; src/core/ingest/decimals.ts), and records whose formula names a dropped column.
 */
import type { Findings, Finding } from '../../core/ingest/findings';
import { classListMismatch, colourTextClasses, numericClasses, textClasses } from '../../core/ingest/classes';
import { formulaColumns } from '../../core/ingest/plan';
import { DecimalTracker } from '../../core/ingest/decimals';
import type { Layer } from './layer';

/**
 * Settles every layer: its class table and rule, sample type and no-data value, or drops it
 * (`plan.dropped`) with a droppable finding.
 * @param layers the layers of the read pass (changed in place)
 * @param codeOf extra texts of the key layers' keys (codes, names), by key layer code
 * @param found findings (added to)
 * @returns the codes dropped
 */
export function decideColumns(layers: Layer[], codeOf: Map<string, Map<string, string>>, found: Findings): Set<string> {
  const dropped = new Set<string>();
  const dropCol = (l: Layer, f: Finding) => {
    found.add(f);
    dropped.add(l.plan.code);
    l.plan.dropped = true;
  };
  for (const l of layers) {
    const code = l.plan.code;
    const mismatch = l.plan.role === 'indicator' && l.plan.type === 'class' && l.plan.record ? classListMismatch(l.plan.record) : null;
    if (mismatch) found.add({ kind: 'class-lists', severity: 'info', column: code, code, field: 'classColors', message: `Column ${code}: ${mismatch}` });
    if (l.plan.role === 'key') {
      const k = textClasses(code, l.keys!, codeOf.get(code));
      l.classes = k;
    } else if (l.textN > 0 && l.numN > 0) {
      dropCol(l, { kind: 'mixed-types', severity: 'droppable', column: code, row: l.firstText, message: `Column ${code} mixes numbers (first in row ${l.firstNum}) and text (first in row ${l.firstText}).` });
      continue;
    } else if (l.plan.type === 'continuous' && l.textN > 0) {
      dropCol(l, { kind: 'text-in-continuous', severity: 'droppable', column: code, row: l.firstText, message: `Column ${code} holds text (first in row ${l.firstText}) but its record is continuous.` });
      continue;
    } else if (l.plan.type === 'class' && l.textN > 0) {
      l.classes = textClasses(code, l.keys!);
      l.rule = colourTextClasses(l.classes.table, l.plan.record);
    } else if (l.plan.type === 'class') {
      if (l.firstBad) {
        dropCol(l, { kind: 'class-not-integer', severity: 'droppable', column: code, row: l.firstBad, message: `Column ${code} is a class layer but holds a value that is not an integer 0..65534 (row ${l.firstBad}).` });
        continue;
      }
      const nc = numericClasses(l.plan.record ?? {}, l.present!);
      if (nc.unlabelled.length) {
        dropCol(l, { kind: 'class-without-label', severity: 'droppable', column: code, code, field: 'classLabels', message: `Column ${code}: class value(s) ${nc.unlabelled.slice(0, 10).join(', ')}${nc.unlabelled.length > 10 ? ', ...' : ''} have no label in the record's classBreaks/classLabels.` });
        continue;
      }
      l.classes = { table: nc.table, extras: [] };
      l.rule = nc.rule;
      for (const e of nc.table) if (e.value > l.maxValue) l.maxValue = e.value;
    }
    if (l.classes) {
      if (l.classes.remap) l.maxValue = l.classes.table.length;
      if (l.maxValue > 65534) {
        dropCol(l, { kind: 'too-many-classes', severity: 'droppable', column: code, message: `Column ${code} has ${l.maxValue} classes; at most 65,534 fit a UInt16 layer.` });
        continue;
      }
      l.sampleType = l.maxValue <= 254 ? 'Byte' : 'UInt16';
      l.noData = l.sampleType === 'Byte' ? 255 : 65535;
    } else {
      // exact storage of the values read (src/core/ingest/decimals.ts)
      const st = (l.dec ?? new DecimalTracker()).result();
      l.sampleType = st.sampleType;
      l.noData = st.noData;
      l.decimals = st.decimals;
    }
  }
  // Records whose formula names a dropped column go too (repeat until stable).
  let changed = true;
  while (changed) {
    changed = false;
    for (const l of layers) {
      if (l.plan.dropped || l.plan.role !== 'indicator') continue;
      const gone = formulaColumns(l.plan.record?.aggFunR ?? '').filter((c) => dropped.has(c));
      if (gone.length) {
        dropCol(l, { kind: 'formula-column', severity: 'droppable', code: l.plan.code, field: 'aggFunR', message: `The formula of ${l.plan.code} names ${gone.join(', ')}, dropped above; the record is dropped.` });
        changed = true;
      }
    }
  }
  return dropped;
}
