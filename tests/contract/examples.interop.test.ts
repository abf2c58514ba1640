/**
 * Runs the curl examples of src/contract/EXAMPLES.md and of the README (its `sh` blocks that
 * call curl) against a live Node server: every such block must exit 0, and every line of the
 * `text` block that follows it must appear in its output (session keys normalised to `x0…`).
 * README blocks that run the project's own commands (`npm run ingest`, `npm run serve`: the
 * worked ingest example) run from the repository root with their own free port and temporary
 * paths; the servers they start are stopped with their process group afterwards.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';
import { bundleDir } from './backend';

const md = readFileSync(path.resolve(__dirname, '../../src/contract/EXAMPLES.md'), 'utf8');
const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

interface Example {
  script: string;
  expect: string[];
  line: number;
}

/** `sh` blocks, each with the lines of the `text` block right after it (if any). */
export function examples(text: string): Example[] {
  const blocks = [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2], line: text.slice(0, m.index).split('\n').length }));
  const out: Example[] = [];
  blocks.forEach((b, i) => {
    if (b.lang !== 'sh') return;
    const next = blocks[i + 1];
    const expectLines = next?.lang === 'text' ? next.body.split('\n').map((l) => l.trim()).filter(Boolean) : [];
    out.push({ script: b.body, expect: expectLines, line: b.line });
  });
  return out;
}

let srv: RunningServer;
let sessions: string;
let cwd: string;
beforeAll(async () => {
  sessions = mkdtempSync(path.join(os.tmpdir(), 'indapi3-ex-s-'));
  cwd = mkdtempSync(path.join(os.tmpdir(), 'indapi3-ex-'));
  srv = await startServer({ port: 0, host: '127.0.0.1', sessionDir: sessions, dataDir: bundleDir(), log: false });
});
afterAll(async () => {
  await srv?.close();
  rmSync(sessions, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const list = examples(md);
/** README blocks that call the API (the install/start/test blocks do not run curl). */
const readmeAll = examples(readme).filter((e) => e.script.includes('curl'));
/** Those that start the project's own commands (run from the repository root). */
const readmeLocal = readmeAll.filter((e) => /\bnpm run /.test(e.script));
/** Those that talk to the running server only. */
const readmeList = readmeAll.filter((e) => !readmeLocal.includes(e));

test('EXAMPLES.md has examples, each with expected output', () => {
  expect(list.length).toBeGreaterThanOrEqual(10);
  for (const e of list) expect(e.expect.length, `example at line ${e.line}`).toBeGreaterThan(0);
});

test('the README has curl examples, each with expected output', () => {
  expect(readmeList.length).toBeGreaterThanOrEqual(2);
  expect(readmeLocal.length).toBeGreaterThanOrEqual(1);
  for (const e of readmeLocal) expect(e.expect.length, `README example at line ${e.line}`).toBeGreaterThan(0);
  for (const e of readmeList) expect(e.expect.length, `README example at line ${e.line}`).toBeGreaterThan(0);
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

/** Runs a README block that uses the project's npm scripts from the repository root; stdout + stderr. */
async function runLocal(script: string): Promise<{ out: string; port: number; tmp: string }> {
  const port = await freePort();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-ex-local-'));
  const s = script.split('localhost:8090').join(`127.0.0.1:${port}`).split('PORT=8090').join(`PORT=${port} HOST=127.0.0.1`).split('/tmp/').join(`${tmp}/`);
  const child = spawn('bash', ['-e', '-u', '-c', s], { cwd: path.resolve(__dirname, '../..'), detached: true, env: { ...process.env, LOG: '0', SESSION_DIR: path.join(tmp, 'sessions') } });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 180_000);
  const code = await new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
  clearTimeout(timer);
  // the block leaves its server running in the background: stop the whole group
  try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
  if (code !== 0) throw new Error(`example failed (exit ${code}):\n${s}\n${out}`);
  return { out, port, tmp };
}

describe('README (project commands)', () => {
  for (const e of readmeLocal) {
    test(`example at line ${e.line}: ${e.script.split('\n')[0].slice(0, 70)}`, async () => {
      const { out, tmp } = await runLocal(e.script);
      try {
        const got = out.split(`${tmp}/`).join('/tmp/');
        for (const want of e.expect) expect(got, `output of the example at line ${e.line}`).toContain(want);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }, 240_000);
  }
});

describe.each([
  ['EXAMPLES.md', list],
  ['README.md', readmeList],
])('%s', (_name, examplesOfFile) => {
  for (const e of examplesOfFile) {
    test(`example at line ${e.line}: ${e.script.split('\n')[0].slice(0, 70)}`, async () => {
      const base = `http://127.0.0.1:${srv.port}`;
      const script = e.script.split('http://localhost:8080').join(base);
      const { stdout } = await promisify(execFile)('bash', ['-e', '-u', '-c', script], { cwd, timeout: 60_000 }).catch((err) => {
        throw new Error(`example failed (exit ${err.code}):\n${script}\n${err.stdout}\n${err.stderr}`);
      });
      const got = stdout.split(base).join('http://localhost:8080').replace(/x0[0-9a-f]{32}/g, 'x0…');
      for (const want of e.expect.map((l) => l.replace(/x0[0-9a-f]{32}/g, 'x0…'))) {
        expect(got, `output of the example at line ${e.line}`).toContain(want);
      }
    });
  }
});
