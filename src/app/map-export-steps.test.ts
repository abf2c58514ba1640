import { expect, test, vi } from 'vitest';
import { abortable, buildThenSave, isAbort, progressText, stepper, type ExportProgress } from './map-export-steps';

test('each step is reported as it starts, as "label n/total"', () => {
  const seen: ExportProgress[] = [];
  const next = stepper(4, undefined, (p) => seen.push(p));
  next('Drawing map'); next('Drawing outlines');
  expect(seen.map(progressText)).toEqual(['Drawing map 1/4', 'Drawing outlines 2/4']);
});

test('a cancel stops the export at the next step: that step is not reported', () => {
  const ac = new AbortController();
  const seen: string[] = [];
  const next = stepper(4, ac.signal, (p) => seen.push(p.label));
  next('Drawing map');
  ac.abort();
  expect(() => next('Drawing outlines')).toThrow(expect.objectContaining({ name: 'AbortError' }));
  expect(seen).toEqual(['Drawing map']);
});

test('a cancel while waiting on work that cannot be interrupted rejects at once with an AbortError', async () => {
  const ac = new AbortController();
  const never = new Promise<number>(() => {});
  const p = abortable(never, ac.signal);
  ac.abort();
  const e = await p.catch((x: unknown) => x);
  expect(isAbort(e)).toBe(true);
  await expect(abortable(Promise.resolve(3), new AbortController().signal)).resolves.toBe(3);
  await expect(abortable(Promise.reject(new Error('PNG encoding failed')))).rejects.toThrow('PNG encoding failed');
});

test('nothing is saved after a cancel, even when the build ignored the signal and finished', async () => {
  const ac = new AbortController();
  const save = vi.fn();
  let finish!: (b: string) => void;
  const done = buildThenSave(() => new Promise<string>((res) => { finish = res; }), save, ac.signal);
  ac.abort();
  finish('file');
  await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  expect(save).not.toHaveBeenCalled();
  // not cancelled: saved once
  await buildThenSave(async () => 'file', save, new AbortController().signal);
  expect(save).toHaveBeenCalledOnce();
  expect(save).toHaveBeenCalledWith('file');
});

test('a failure is not taken for a cancel', () => {
  expect(isAbort(new Error('boom'))).toBe(false);
  expect(isAbort(new DOMException('stop', 'AbortError'))).toBe(true);
});
