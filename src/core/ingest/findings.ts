/**
 * Validation findings of the table ingest (issue 9 item 4): result objects, never thrown.
 * Each names the row (1-based data row; the header is row 0, so file line = row + 1),
 * the column, or the catalog field it concerns.
 */

/** What a finding is about. */
export type FindingKind =
  | 'unreadable' // a file cannot be read or parsed (fatal)
  | 'encoding' // text encoding: Latin-1 detected (info) or mixed encodings (fatal)
  | 'header' // missing key columns, empty or repeated column names (fatal)
  | 'code-collision' // two columns or two records with the same code, also case-insensitively
  | 'formula-column' // a formula names a column that is not in the table
  | 'formula' // a formula names no column at all
  | 'formula-unparsable' // a formula the engine's parser rejects (every query of it would fail)
  | 'class-lists' // classBreaks / classLabels / classColors of different lengths (info; colours generated)
  | 'key-mismatch' // two tables of one ingest give different keys (ISO3, names, codes, X, Y) for a cell
  | 'bad-code' // a code too long or not safe as a file name
  | 'cleanup' // leftovers of killed runs removed (info)
  | 'unused-column' // a column with no record that no formula uses: not written (info)
  | 'helper-column' // a column with no record that a formula uses: written, unlisted (info)
  | 'record-without-column' // a catalog record whose column is not in the table
  | 'mixed-types' // numbers and text in one column
  | 'text-in-continuous' // text in a column whose record is continuous
  | 'class-not-integer' // a numeric class column with non-integer or out-of-range values
  | 'class-without-label' // a numeric class value that the record does not label
  | 'too-many-classes' // more than 65,534 classes
  | 'bad-row' // a row with the wrong number of fields
  | 'control-character' // a text value holding a C0 control character (NUL, ESC, ...): fatal
  | 'off-grid' // CELL5M not a cell of the global 4320 x 2160 grid
  | 'outside-window' // a cell outside the bundle window
  | 'cell-xy-mismatch' // CELL5M and X/Y name different cells
  | 'duplicate-cell' // a cell given by more than one row
  | 'series' // records formed into a series (info; src/core/bundle/series-form.ts)
  | 'no-rows'; // no valid row left (fatal)

/**
 * Severity: `fatal` stops the run even with --drop-invalid; `droppable` stops the run unless
 * --drop-invalid is given, which then drops the row, column or record named; `info` is a note.
 */
export type Severity = 'fatal' | 'droppable' | 'info';

/** One validation finding. */
export interface Finding {
  /** What it is about. */
  kind: FindingKind;
  /** The table file it concerns, when an ingest reads several. */
  file?: string;
  /** How bad. */
  severity: Severity;
  /** Human-readable text naming the place. */
  message: string;
  /** 1-based data row (header = row 0). */
  row?: number;
  /** Table column name. */
  column?: string;
  /** Catalog field name (vi.csv). */
  field?: string;
  /** Catalog record code. */
  code?: string;
  /** For row kinds: how many rows had the same problem (the first is named by `row`). */
  count?: number;
}

/** Collects findings, keeping at most `perKind` row findings of each kind (others only counted). */
export class Findings {
  /** All kept findings, in the order found. */
  readonly list: Finding[] = [];
  private readonly rowKinds = new Map<FindingKind, Finding>();

  constructor(private readonly perKind = 20) {}

  /** Adds a finding. */
  add(f: Finding): void {
    this.list.push(f);
  }

  /**
   * Adds a row finding: the first `perKind` of a kind are kept one by one, the rest counted
   * on a summary finding of that kind.
   */
  addRow(f: Finding): void {
    let s = this.rowKinds.get(f.kind);
    if (!s) {
      s = { kind: f.kind, severity: f.severity, message: '', count: 0 };
      this.rowKinds.set(f.kind, s);
    }
    s.count = (s.count ?? 0) + 1;
    if ((s.count ?? 0) <= this.perKind) this.list.push(f);
  }

  /** Summary findings for row kinds with more rows than were kept one by one. */
  summaries(): Finding[] {
    const out: Finding[] = [];
    for (const [kind, s] of this.rowKinds) {
      if ((s.count ?? 0) > this.perKind) {
        out.push({ kind, severity: s.severity, count: s.count, message: `${s.count} rows in all have this problem (${kind}); the first ${this.perKind} are listed.` });
      }
    }
    return out;
  }

  /** True when any finding has the severity. */
  has(sev: Severity): boolean {
    return this.list.some((f) => f.severity === sev);
  }
}
