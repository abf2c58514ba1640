/**
 * Writes the R package's generated files (clients/r/indapi3/R/generated.R and one
 * man/<method>.Rd per method) from the server's method registry. Run after adding a method or
 * an argument: `npm run r-client`. scripts/r-client.test.ts fails while they are stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { METHODS } from '../src/contract/methods';
import { rClientFiles } from './r-client';

for (const [path, text] of rClientFiles(METHODS)) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
