/**
 * Which engine the contract tests run on: the real engine on the real bundle when both
 * exist (src/node/engine.ts, public/data/manifest.json), else the fixture engine.
 * Set CONTRACT_ENGINE=fixture to force the fixture.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerOptions } from '../../src/node/server';
import { createFakeEngine, fakeGenFile } from './fake-engine.fixture';

const root = path.resolve(__dirname, '..', '..');

/** True when the real engine and bundle are present. */
export function realBackendAvailable(): boolean {
  return existsSync(path.join(root, 'src/node/engine.ts')) && existsSync(path.join(root, 'public/data/manifest.json'));
}

/** Server options selecting the engine (empty = the server's defaults, i.e. the real engine). */
export async function contractBackend(): Promise<Pick<ServerOptions, 'engine' | 'genFile'>> {
  if (process.env.CONTRACT_ENGINE !== 'fixture' && realBackendAvailable()) return {};
  return { engine: createFakeEngine(), genFile: fakeGenFile };
}
