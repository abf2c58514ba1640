/**
 * Engine worker (Comlink): exposes the core `Engine` through the per-method message map
 * of protocol/engine.ts (engine-api.ts), with cancellation by call id (AbortSignal is not
 * transferable) and progress callbacks. Failures come back as
 * `{ ok: false, error: { code, message, detail } }` so the typed error code survives the
 * worker boundary.
 */
import { expose } from 'comlink';
import { createWorkerEngine } from './engine-factory';
import { createEngineWorkerApi } from './engine-api';

expose(createEngineWorkerApi(createWorkerEngine));
