/**
 * Runs the curl examples of src/contract/EXAMPLES.md and of the README (its `sh` blocks that
 * call curl) against a live Node server: every such block must exit 0, and every line of the
 * `text` block that follows it must appear in its output (session keys normalised to `x0…`).
 */
import { execFile } from 'node:child_process';
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
const readmeList = examples(readme).filter((e) => e.script.includes('curl'));

test('EXAMPLES.md has examples, each with expected output', () => {
  expect(list.length).toBeGreaterThanOrEqual(10);
  for (const e of list) expect(e.expect.length, `example at line ${e.line}`).toBeGreaterThan(0);
});

test('the README has curl examples, each with expected output', () => {
  expect(readmeList.length).toBeGreaterThanOrEqual(2);
  for (const e of readmeList) expect(e.expect.length, `README example at line ${e.line}`).toBeGreaterThan(0);
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
