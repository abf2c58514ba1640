/**
 * Which engine and bundle the contract tests run on:
 * - the real engine on the real bundle (`public/data`) when it exists;
 * - else the real engine on the engine's test-fixture bundle (`tests/engine/fixtures/bundle`);
 * - `CONTRACT_ENGINE=fixture`: the in-memory fixture engine (fake-engine.fixture.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerOptions } from '../../src/node/server';
import { createFakeEngine, fakeGenFile } from './fake-engine.fixture';

const root = path.resolve(__dirname, '..', '..');
/** The real bundle. */
export const REAL_BUNDLE = path.join(root, 'public', 'data');
/** The engine's test-fixture bundle (made-up values on a 60 x 48 grid in East Africa). */
export const FIXTURE_BUNDLE = path.join(root, 'tests', 'engine', 'fixtures', 'bundle');

/** The bundle folder the tests use. */
export function bundleDir(): string {
  return existsSync(path.join(REAL_BUNDLE, 'manifest.json')) ? REAL_BUNDLE : FIXTURE_BUNDLE;
}

/** Server options selecting the engine and the bundle. */
export async function contractBackend(): Promise<Pick<ServerOptions, 'engine' | 'genFile' | 'dataDir'>> {
  if (process.env.CONTRACT_ENGINE === 'fixture') return { engine: createFakeEngine(), genFile: fakeGenFile };
  return { dataDir: bundleDir() };
}
