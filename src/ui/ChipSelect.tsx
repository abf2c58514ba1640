/**
 * Multi-value picker: the chosen values as removable chips, and a combobox (downshift's
 * `useCombobox`, WAI-ARIA 1.2 combobox pattern) to add one. Typing filters the options;
 * the arrow keys only move the highlight; a value is added on Enter or click, never on a
 * highlight change or on blur. Focus stays where the user is: in the box after adding, on
 * the next chip (else the box) after removing one.
 */
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useCombobox } from 'downshift';

/** One option: `label` in the add box; the chip shows `chip` (default `label`) with `code` in small monospace. */
export interface ChipOption { value: string; label: string; chip?: string; code?: string; group?: string }

/** Props of {@link ChipSelect}. */
export interface ChipSelectProps {
  label: string;
  options: ChipOption[];
  values: string[];
  onChange: (v: string[]) => void;
  /** Placeholder of the add box. */
  placeholder?: string;
  /** Shown when nothing is chosen. */
  emptyText?: string;
  /** Most options listed at once (type to narrow). */
  maxShown?: number;
  /** id of the add box (to focus it from elsewhere). */
  inputId?: string;
  /**
   * Ranked search: option values matching a typed query, best first (e.g. the catalog search of
   * src/core/catalog/search.ts, with its synonyms and ranking); default {@link filterOptions}.
   */
  search?: OptionSearch;
}

/** A ranked search over option values: the values matching `query`, best first. */
export type OptionSearch = (query: string) => string[];

/** Options matching `query`: by the ranked `search` when given (in its order), else {@link filterOptions}. */
export function matchOptions(options: ChipOption[], query: string, search?: OptionSearch): ChipOption[] {
  if (!search || !query.trim()) return filterOptions(options, query);
  const byVal = new Map(options.map((o) => [o.value, o]));
  return search(query).map((v) => byVal.get(v)).filter((o): o is ChipOption => !!o);
}

/** Lower case without diacritics ("Côte" matches "cote"). */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Options whose label, code or group contain every word of `query` (case and accent blind), in option order. */
export function filterOptions(options: ChipOption[], query: string): ChipOption[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return options;
  return options.filter((o) => {
    const hay = fold(`${o.label} ${o.code ?? ''} ${o.group ?? ''}`);
    return words.every((w) => hay.includes(w));
  });
}

/** The picker. */
export function ChipSelect({ label, options, values, onChange, placeholder = 'Add…', emptyText, maxShown = 100, inputId, search }: ChipSelectProps) {
  const [text, setText] = useState('');
  const byVal = useMemo(() => new Map(options.map((o) => [o.value, o])), [options]);
  const matches = useMemo(() => matchOptions(options.filter((o) => !values.includes(o.value)), text, search), [options, values, text, search]);
  const items = matches.slice(0, maxShown);
  const list = useRef<HTMLUListElement>(null);
  const input = useRef<HTMLInputElement | null>(null);
  // After a removal: the value whose remove button takes focus, or '' for the add box.
  const [focusNext, setFocusNext] = useState<string | null>(null);
  useEffect(() => {
    if (focusNext === null) return;
    const b = focusNext ? list.current?.querySelector<HTMLButtonElement>(`li[data-value="${CSS.escape(focusNext)}"] button`) : null;
    (b ?? input.current)?.focus();
    setFocusNext(null);
  }, [focusNext, values]);

  const cb = useCombobox<ChipOption>({
    items,
    inputValue: text,
    selectedItem: null,
    ...(inputId ? { inputId } : {}),
    defaultHighlightedIndex: 0, // typing highlights the first match; Enter adds it
    itemToString: (o) => o?.label ?? '',
    stateReducer: (state, { type, changes }) => {
      switch (type) {
        case useCombobox.stateChangeTypes.InputBlur:
          return { ...changes, selectedItem: state.selectedItem }; // leaving the box adds nothing
        case useCombobox.stateChangeTypes.InputKeyDownEnter:
        case useCombobox.stateChangeTypes.ItemClick:
          return { ...changes, isOpen: false, highlightedIndex: -1 };
        default:
          return changes;
      }
    },
    // a click on an option adds it (Enter is handled in the box's keydown below)
    onStateChange: ({ type, selectedItem }) => {
      if (type === useCombobox.stateChangeTypes.ItemClick && selectedItem) add(selectedItem);
    },
  });

  function add(o: ChipOption): void {
    if (!values.includes(o.value)) onChange([...values, o.value]);
    setText('');
    input.current?.focus();
  }
  // Enter, in the keydown itself: the text in the box decides (a highlight left from before the text
  // changed never adds another option), and the box is emptied before the next key is handled, so
  // characters typed at once after Enter stay (downshift's own Enter handling reaches the app in an
  // effect, after them, under CPU load).
  const onEnter = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const typed = e.currentTarget.value.trim();
    let pick: ChipOption | null = cb.isOpen && cb.highlightedIndex >= 0 ? items[cb.highlightedIndex] ?? null : null;
    const live = typed ? matchOptions(options.filter((o) => !values.includes(o.value)), typed, search) : null;
    if (live && (!pick || !live.some((o) => o.value === pick!.value))) pick = live[0] ?? null;
    if (!pick) return;
    e.preventDefault();
    (e.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
    e.currentTarget.value = '';
    add(pick);
    cb.closeMenu();
  };

  const remove = (v: string) => {
    const i = values.indexOf(v);
    const rest = values.filter((x) => x !== v);
    setFocusNext(rest[i] ?? rest[i - 1] ?? '');
    onChange(rest);
  };
  // the text is set in the change event itself (a controlled input updated later, in downshift's
  // effect, put back an older text and scrambled fast typing under CPU load)
  const inputProps = cb.getInputProps({ ref: input, placeholder, onKeyDown: onEnter, onChange: (e: ChangeEvent<HTMLInputElement>) => setText(e.target.value) });
  return (
    <fieldset className="chips">
      <legend>{label}</legend>
      <ul role="list" aria-label={`${label}: chosen`} ref={list}>
        {values.length === 0 && emptyText && <li className="muted small">{emptyText}</li>}
        {values.map((v) => (
          <li key={v} className="chip" data-value={v}>
            <span>{byVal.get(v)?.chip ?? byVal.get(v)?.label ?? v}{byVal.get(v)?.code && <> <code className="chip-code">{byVal.get(v)!.code}</code></>}</span>
            <button type="button" aria-label={`Remove ${byVal.get(v)?.label ?? v}`} onClick={() => remove(v)}>×</button>
          </li>
        ))}
      </ul>
      <div className="combo">
        <label className="sr-only" {...cb.getLabelProps()}>Add to {label}</label>
        <div className="combo-box">
          <input type="text" {...inputProps} />
          <button type="button" className="combo-toggle" aria-label={`Show ${label} options`} {...cb.getToggleButtonProps()}>▾</button>
        </div>
        <ul className={cb.isOpen ? 'combo-menu open' : 'combo-menu'} {...cb.getMenuProps({ 'aria-label': label })}>
          {cb.isOpen && items.map((o, i) => (
            <li key={o.value} className={cb.highlightedIndex === i ? 'hl' : undefined} {...cb.getItemProps({ item: o, index: i })}>
              {o.group && o.group !== items[i - 1]?.group && <span className="grp" aria-hidden="true">{o.group}</span>}
              <span>{o.label}</span>
            </li>
          ))}
          {cb.isOpen && items.length === 0 && <li className="muted small" role="presentation">No match{text ? ` for “${text}”` : ''}</li>}
          {cb.isOpen && matches.length > items.length && <li className="muted small" role="presentation">{matches.length - items.length} more: type to narrow</li>}
        </ul>
      </div>
    </fieldset>
  );
}
