/** Helpers of the catalog e2e tests and of bench/app.ts: in-page search keystroke timing. */
import type { Page } from 'playwright-core';

/**
 * Types each query into the catalog search box one character at a time, in the page, and
 * times each keystroke: from the input event to the end of React's render of the results
 * (the update is flushed before the next task, measured with a MessageChannel round trip).
 * Returns milliseconds: p50, p95, max over all keystrokes, and their number.
 */
export async function searchKeystrokeMs(page: Page, queries: string[]): Promise<{ p50: number; p95: number; max: number; count: number }> {
  return page.evaluate(async (qs) => {
    const input = [...document.querySelectorAll('input[type="search"]')].find((e) => (e as HTMLInputElement).closest('.catalog')) as HTMLInputElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const nextTask = () => new Promise<void>((res) => { const ch = new MessageChannel(); ch.port1.onmessage = () => res(); ch.port2.postMessage(0); });
    const times: number[] = [];
    for (let rep = 0; rep < 3; rep++) {
      for (const q of qs) {
        for (let i = 1; i <= q.length; i++) {
          const t0 = performance.now();
          setter.call(input, q.slice(0, i));
          input.dispatchEvent(new Event('input', { bubbles: true }));
          await nextTask();
          times.push(performance.now() - t0);
        }
        setter.call(input, '');
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await nextTask();
      }
    }
    const s = [...times].sort((a, b) => a - b);
    return { p50: s[Math.floor(s.length / 2)], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))], max: s[s.length - 1], count: s.length };
  }, queries);
}
