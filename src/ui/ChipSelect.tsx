/** Multi-value picker: chosen values as removable chips plus a native select to add one. */
import { useId } from 'react';

/** One option: `label` in the add box; the chip shows `chip` (default `label`) with `code` in small monospace. */
export interface ChipOption { value: string; label: string; chip?: string; code?: string; group?: string }

/** Props of {@link ChipSelect}. */
export interface ChipSelectProps {
  label: string;
  options: ChipOption[];
  values: string[];
  onChange: (v: string[]) => void;
  /** Text of the empty choice of the add box. */
  placeholder?: string;
  /** Shown when nothing is chosen. */
  emptyText?: string;
}

/** The picker. */
export function ChipSelect({ label, options, values, onChange, placeholder = 'Add…', emptyText }: ChipSelectProps) {
  const id = useId();
  const byVal = new Map(options.map((o) => [o.value, o]));
  const groups = new Map<string, ChipOption[]>();
  for (const o of options) {
    if (values.includes(o.value)) continue;
    const g = o.group ?? '';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(o);
  }
  return (
    <fieldset className="chips">
      <legend>{label}</legend>
      <ul role="list" aria-label={`${label}: chosen`}>
        {values.length === 0 && emptyText && <li className="muted small">{emptyText}</li>}
        {values.map((v) => (
          <li key={v} className="chip" data-value={v}>
            <span>{byVal.get(v)?.chip ?? byVal.get(v)?.label ?? v}{byVal.get(v)?.code && <> <code className="chip-code">{byVal.get(v)!.code}</code></>}</span>
            <button type="button" aria-label={`Remove ${byVal.get(v)?.label ?? v}`} onClick={() => onChange(values.filter((x) => x !== v))}>×</button>
          </li>
        ))}
      </ul>
      <label htmlFor={id} className="sr-only">Add to {label}</label>
      <select id={id} value="" onChange={(e) => { if (e.target.value) onChange([...values, e.target.value]); }}>
        <option value="">{placeholder}</option>
        {[...groups].map(([g, opts]) => (g ? (
          <optgroup key={g} label={g}>{opts.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}</optgroup>
        ) : opts.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)))}
      </select>
    </fieldset>
  );
}
