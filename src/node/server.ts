/**
 * Node server (placeholder until the contract lands): serves the built app from `dist/`
 * on PORT (default 8080).
 */
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';

const port = Number(process.env.PORT ?? 8080);
const app = new Hono();
app.use('/*', serveStatic({ root: './dist' }));
const server = serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? '0.0.0.0' }, (info) => {
  console.log(`indapi3 listening on http://localhost:${info.port}/`);
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.close(() => process.exit(0)));
