/**
 * The frame of a panel's result (issue 23 item 5): while a new request runs over a shown
 * result, the result is dimmed and a line says what it was for and what is being computed,
 * so an old answer never reads as the answer to the new inputs. One component for every panel
 * (Summaries, Areas, Table, Compare, Catchment); the state comes from `useRun` (`old`).
 */
import type { ReactNode } from 'react';

/** Props of {@link ResultFrame}. */
export interface ResultFrameProps {
  /**
   * The run's view (`useRun`'s state): `old` while a newer request runs (the shown result's
   * description and the running one's), and the shown result's query label (data-for).
   */
  run: { old: { was: string; next: string } | null; last: { query?: { label: string } | null } | null };
  /** Why the shown result no longer answers the inputs (dimmed under this note), or null. */
  stale?: string | null;
  /** data-testid of the block (e2e tests find results by it). */
  testId: string;
  children: ReactNode;
}

/** The line over an old result, e.g. "Old result, for Catchment from 36.817, -1.283. Computing Catchment from 39.665, -4.043…". */
export function oldLine(old: { was: string; next: string }): string {
  return old.was === old.next ? `Old result, for ${old.was}. Computing it again…` : `Old result, for ${old.was}. Computing ${old.next}…`;
}

/** The result block: its children, dimmed under a note while they are the old result. */
export function ResultFrame({ run, stale, testId, children }: ResultFrameProps) {
  const { old } = run;
  const dim = !!old || !!stale;
  return (
    <div className={dim ? 'result-block result-old' : 'result-block'} data-testid={testId} data-old={old ? '1' : '0'} data-stale={stale ? '1' : '0'} data-for={run.last?.query?.label} aria-busy={old ? true : undefined}>
      {old && <p className="msg info small result-old-note" role="status" data-testid="result-old">{oldLine(old)}</p>}
      {!old && stale && <p className="msg info small result-old-note" role="status" data-testid="result-stale">Old result{run.last?.query?.label ? `, for ${run.last.query.label}` : ''}. {stale}</p>}
      {children}
    </div>
  );
}
