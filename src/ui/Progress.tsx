/** Progress bar with a cancel button for long work running in a worker. */

/** Props of {@link Progress}. */
export interface ProgressProps { label: string; done?: number; total?: number; onCancel?: () => void }

/** The progress row (indeterminate when total is unknown). */
export function Progress({ label, done, total, onCancel }: ProgressProps) {
  const pct = total && total > 0 && done !== undefined ? Math.min(100, Math.round((done / total) * 100)) : undefined;
  return (
    <div className="progress" role="status" aria-live="polite">
      <span>{label}{pct !== undefined ? ` ${pct}%` : '…'}</span>
      <progress max={100} value={pct} aria-label={label} />
      {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
    </div>
  );
}
