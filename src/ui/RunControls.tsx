/**
 * The run controls of a panel (issue 27 item 5): the run button, the progress row with its
 * Cancel button while the request runs, the panel's own message (bad input) and the latest
 * request's error. One component for every panel (Summaries, Areas, Table, Compare, Catchment),
 * so the markup the e2e tests find by role and text is written once:
 * `button.primary` (aria-disabled while running), `role="status"` progress, `role="alert"` messages.
 */
import { Progress } from './Progress';

/** What the controls read of a run (`useRun`'s state, structurally: the ui layer does not import the app). */
export interface RunControlsRun {
  /** A request is running. */
  running: boolean;
  /** [done, total] of the running request, or null (indeterminate). */
  progress: [number, number] | null;
  /** Cancels the running request. */
  cancel: () => void;
}

/** Props of {@link RunControls}. */
export interface RunControlsProps {
  /** The run's state. */
  run: RunControlsRun;
  /** Text of the run button, e.g. "Summarise". */
  label: string;
  /** Label of the progress row, e.g. "Summarising". */
  progressLabel: string;
  /** Starts a run (the button's click). */
  onRun: () => void;
  /** The panel's own message (bad input), shown as an alert; null/undefined: none. */
  message?: string | null;
  /** data-testid of the message, when tests find it. */
  messageTestId?: string;
  /** The latest request's error as text (shown only while no request runs); null/undefined: none. */
  error?: string | null;
  /** data-testid of the error, when tests find it. */
  errorTestId?: string;
  /** Extra `data-*` attributes of the button (e.g. the Summaries' `data-runs` read by e2e helpers). */
  buttonData?: Record<`data-${string}`, string | number>;
}

/** The run button with progress and Cancel, then the panel's message and the run's error. */
export function RunControls({ run, label, progressLabel, onRun, message, messageTestId, error, errorTestId, buttonData }: RunControlsProps) {
  return (
    <>
      <div className="row">
        <button type="button" className="primary" onClick={onRun} aria-disabled={run.running} {...buttonData}>{label}</button>
        {run.running && <Progress label={progressLabel} done={run.progress?.[0]} total={run.progress?.[1]} onCancel={run.cancel} />}
      </div>
      {message && <p className="msg error" role="alert" data-testid={messageTestId}>{message}</p>}
      {error && !run.running && <p className="msg error" role="alert" data-testid={errorTestId}>{error}</p>}
    </>
  );
}
