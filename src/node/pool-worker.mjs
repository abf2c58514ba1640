// Entry of a pool worker thread: registers tsx (TypeScript) in this thread, then loads the
// worker module. A plain .mjs so that Node can start it under any runner (tsx, vitest).
import { register } from 'tsx/esm/api';

register();
const mod = await import('./pool-worker.ts');
export default mod.default;
