#!/usr/bin/env node
// indapi3-ingest: the table ingest CLI (src/node/ingest/cli.ts), run through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/node/ingest/cli.ts');
process.exit(await main(process.argv.slice(2)));
