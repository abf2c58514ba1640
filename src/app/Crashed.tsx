/**
 * What the page shows when the app itself fails while rendering (an error no part of it caught):
 * the error and a reload button, instead of the blank page React leaves when its root unmounts.
 * Parts loaded on demand have their own boundary (`src/ui/Loadable.tsx`) and do not reach this one.
 */
import type { FallbackProps } from 'react-error-boundary';

/** The whole-app error screen (react-error-boundary fallback). */
export function Crashed({ error }: FallbackProps) {
  const msg = error instanceof Error ? error.message : String(error);
  return (
    <main className="crashed" role="alert" data-testid="app-crashed" style={{ padding: 24, maxWidth: 640 }}>
      <h1>The app stopped on an error</h1>
      <p className="msg error">{msg}</p>
      <p>Your link keeps what you had chosen. <button type="button" onClick={() => location.reload()}>Reload the page</button></p>
    </main>
  );
}
