/**
 * Steps, progress and cancelling of a map export (issue 26 target 3): the export reports each
 * step as it starts ("Drawing map 1/4") and stops at the next step, or at once while waiting on
 * work that cannot be interrupted (image decoding and encoding, the PDF writer), when its
 * AbortSignal is aborted; nothing is downloaded after a cancel. Pure: no DOM.
 */

/** A map export's progress: step `step` of `total` has started; `label` says what it does. */
export interface ExportProgress {
  /** The step that started, 1-based. */
  step: number;
  /** Number of steps. */
  total: number;
  /** What the step does, e.g. "Drawing map". */
  label: string;
}

/** Called as each step of an export starts. */
export type OnExportProgress = (p: ExportProgress) => void;

/** The text shown for a progress report: "Drawing map 1/4". */
export function progressText(p: ExportProgress): string {
  return `${p.label} ${p.step}/${p.total}`;
}

/**
 * A step counter for an export of `total` steps: each call starts the next step (reports it to
 * `onProgress`).
 * @throws the signal's reason (an AbortError DOMException by default) when the signal is aborted
 *   at the start of a step
 */
export function stepper(total: number, signal?: AbortSignal, onProgress?: OnExportProgress): (label: string) => void {
  let step = 0;
  return (label) => {
    signal?.throwIfAborted();
    step = Math.min(total, step + 1);
    onProgress?.({ step, total, label });
  };
}

/**
 * `work` raced against `signal`: rejects with the signal's reason as soon as it is aborted (the
 * work itself runs on; its result is dropped), else settles as `work`.
 */
export function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e: unknown) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}

/**
 * Builds a file with `build` and hands it to `save` (the download) unless `signal` was aborted
 * meanwhile: a cancelled export downloads nothing, even when `build` did not watch the signal.
 * @throws the signal's reason when aborted; what `build` or `save` throw
 */
export async function buildThenSave<T>(build: () => Promise<T>, save: (file: T) => void, signal?: AbortSignal): Promise<void> {
  const file = await abortable(build(), signal);
  signal?.throwIfAborted();
  save(file);
}

/** Whether `e` is the rejection of a cancelled export (an AbortError), not a failure to show. */
export function isAbort(e: unknown): boolean {
  return !!e && typeof e === 'object' && (e as { name?: unknown }).name === 'AbortError';
}
