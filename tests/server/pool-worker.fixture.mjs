// A fixture worker for the method pool (tests/server/pool.test.ts): it answers every call
// with a made-up value, after waiting for the test's gate. `indapi` blocks its thread
// (like a CPU-bound method); other methods wait asynchronously and stop when aborted.
// state (Int32Array over workerData.state): [0] gate (1 = open), [1] calls taken, [2] calls aborted.
import { workerData } from 'node:worker_threads';

const state = new Int32Array(workerData.state);

export default async function run(task) {
  let aborted = false;
  task.port.on('message', () => {
    aborted = true;
  });
  Atomics.store(new Int32Array(task.started), 0, 1);
  Atomics.add(state, 1, 1);
  if (task.call.method === 'indapi') {
    while (Atomics.load(state, 0) === 0) Atomics.wait(state, 0, 0, 50);
  } else {
    while (!aborted && Atomics.load(state, 0) === 0) await new Promise((r) => setTimeout(r, 5));
  }
  task.port.close();
  if (aborted) {
    Atomics.add(state, 2, 1);
    return { ok: false, error: { name: 'IndapiError', code: 'ABORTED', message: 'The request was aborted.' } };
  }
  return { ok: true, out: { value: ['done'], print: '[1] "done"', valueBytes: 8 } };
}
