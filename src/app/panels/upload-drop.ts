/**
 * A file dropped on the map, handed to the Areas panel's upload control (src/app/panels/UploadShapes.tsx).
 * The control's code loads when the panel is first opened, so a drop before then is kept here
 * until the control mounts and takes it; a mounted control gets it at once by a window event.
 */

/** Window event carrying a dropped File (`detail`) to a mounted upload control. */
export const UPLOAD_EVENT = 'indapi-upload';

let pending: File | null = null;

/** Hands `file` to the upload control: kept for {@link takeDroppedFile} and announced by {@link UPLOAD_EVENT}. */
export function handOverDroppedFile(file: File): void {
  pending = file;
  window.dispatchEvent(new CustomEvent(UPLOAD_EVENT, { detail: file }));
}

/** The dropped file not yet read, taken (the next call gives null until another drop). */
export function takeDroppedFile(): File | null {
  const f = pending;
  pending = null;
  return f;
}
