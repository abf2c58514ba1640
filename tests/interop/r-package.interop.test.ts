/**
 * Interop: the R package clients/r/indapi3 against the live Node server on the embedded bundle.
 * `R CMD build` and `R CMD check --no-manual` (its testthat tests compare each function's answer
 * with the JSON API called directly); then an hcapi3 user's script run unchanged with the
 * package check installed, its data.frames and Stata file compared here with the JSON API, and
 * the retries: a proxy answers the first request 503 with `Retry-After: 1`, the package waits
 * and asks again.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/node/server';

const run = promisify(execFile);
const PKG = path.resolve('clients/r/indapi3');

let tmp: string;
let srv: RunningServer;
let proxy: Server;
let proxyPort = 0;
/** Requests the proxy saw, by path, and when. */
const seen: Array<{ path: string; at: number; status: number; agent: string }> = [];

/** A proxy to the server that answers the first `category` call 503 with `Retry-After: 1`. */
function startProxy(target: string): Promise<void> {
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const first = url.endsWith('/R/category/json') && !seen.some((s) => s.path === url);
      seen.push({ path: url, at: Date.now(), status: first ? 503 : 0, agent: req.headers['user-agent'] ?? '' });
      if (first) {
        res.writeHead(503, { 'Retry-After': '1', 'Content-Type': 'text/plain' }).end('busy: try again later');
        return;
      }
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${url}`, { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? 'application/json', 'user-agent': req.headers['user-agent'] ?? '' }, body })
        .then(async (r) => res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/plain' }).end(Buffer.from(await r.arrayBuffer())))
        .catch((e: Error) => res.writeHead(502).end(e.message));
    });
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => {
    proxyPort = (proxy.address() as { port: number }).port;
    resolve();
  }));
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'indapi3-rpkg-'));
  mkdirSync(path.join(tmp, 'dist'), { recursive: true });
  writeFileSync(path.join(tmp, 'dist', 'index.html'), '<!doctype html><h1>fixture shell</h1>');
  srv = await startServer({ port: 0, host: '127.0.0.1', distDir: path.join(tmp, 'dist'), dataDir: path.resolve('public/data'), sessionDir: path.join(tmp, 'sessions'), log: false });
  await startProxy(`http://127.0.0.1:${srv.port}`);
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await srv?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const api = () => `http://127.0.0.1:${srv.port}/ocpu`;

/** The JSON API's value of a call, fetched directly. */
async function direct(method: string, args: Record<string, unknown>): Promise<unknown> {
  const r = await fetch(`${api()}/library/indapi3/R/${method}/json`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(args) });
  expect(r.status).toBe(201);
  return r.json();
}

/** Environment of the R processes: the server, no CRAN index lookups, no forced Suggests. */
function rEnv(): NodeJS.ProcessEnv {
  return { ...process.env, INDAPI3_SERVER: api(), _R_CHECK_FORCE_SUGGESTS_: 'false', _R_CHECK_CRAN_INCOMING_: 'false', R_LIBS_USER: path.join(tmp, 'none') };
}

it('R CMD build and R CMD check --no-manual pass with no ERROR or WARNING against the live server', async () => {
  await run('R', ['CMD', 'build', PKG], { cwd: tmp, env: rEnv(), maxBuffer: 1 << 26 });
  const tarball = readFileSync(path.join(PKG, 'DESCRIPTION'), 'utf8').match(/^Version:\s*(\S+)/m)![1];
  const check = await run('R', ['CMD', 'check', '--no-manual', `indapi3_${tarball}.tar.gz`], { cwd: tmp, env: rEnv(), maxBuffer: 1 << 26 }).catch((e: { stdout: string; stderr: string }) => e);
  const log = check.stdout;
  const status = log.match(/^Status: (.*)$/m)?.[1] ?? '(no status)';
  const rout = readFileSync(path.join(tmp, 'indapi3.Rcheck', 'tests', /FAIL [1-9]/.test(log) ? 'testthat.Rout.fail' : 'testthat.Rout'), 'utf8');
  const counts = rout.match(/\[ FAIL (\d+) \| WARN (\d+) \| SKIP (\d+) \| PASS (\d+) \]/);
  console.log(`R CMD check: Status: ${status}; testthat: ${counts?.[0] ?? '(no summary)'}`);
  expect(log, log.slice(-4000)).not.toMatch(/\.\.\. (ERROR|WARNING)/);
  expect(status).toMatch(/^OK$|^\d+ NOTEs?$/);
  expect(counts).not.toBeNull();
  const [fail, , skip, pass] = [1, 2, 3, 4].map((i) => Number(counts![i]));
  expect(fail).toBe(0);
  // every online test ran: the server answered the checks
  expect(skip).toBe(0);
  expect(pass).toBeGreaterThan(60);
}, 300_000);

const SCRIPT = String.raw`
library(indapi3)
out <- list()
t0 <- Sys.time()
x <- hcapi("ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT")
out$hcapi <- list(class = class(x), adm1IsFactor = is.factor(x$ADM1_NAME_ALT), rows = lapply(seq_len(nrow(x)), function(i) {
  r <- lapply(x[i, , drop = FALSE], function(v) if (is.factor(v)) as.character(v) else v)
  r[!vapply(r, is.na, TRUE)]
}))
setwd(commandArgs(TRUE)[2])
f <- genFile("ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT", format = "dta", dir = ".")
d <- haven::read_dta(grep("\\.dta$", f, value = TRUE))
out$dta <- list(files = basename(f), inWorkingDir = all(dirname(normalizePath(f)) == normalizePath(getwd())),
  ELEVATION = as.numeric(d$ELEVATION), adm1 = as.character(haven::as_factor(d$ADM1_NAME_ALT)))
ct <- category(q = "elevation")
out$category <- list(class = class(ct), rows = lapply(seq_len(nrow(ct)), function(i) as.list(ct[i, ])))
options(indapi3.server = commandArgs(TRUE)[1])
t1 <- Sys.time()
retried <- category(q = "elevation")
out$retry <- list(seconds = as.numeric(difftime(Sys.time(), t1, units = "secs")), same = identical(retried, ct))
cat(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA, na = "null"))
`;

it("an hcapi3 script runs unchanged: data.frames and the Stata file equal the API's; 503 is retried after Retry-After", async () => {
  const script = path.join(tmp, 'hcapi3-script.R');
  writeFileSync(script, SCRIPT);
  // the package as R CMD check installed it, else (this test alone) installed here
  let lib = path.join(tmp, 'indapi3.Rcheck');
  if (!existsSync(path.join(lib, 'indapi3', 'DESCRIPTION'))) {
    lib = path.join(tmp, 'lib');
    mkdirSync(lib, { recursive: true });
    await run('R', ['CMD', 'INSTALL', '--no-test-load', '-l', lib, PKG], { cwd: tmp, env: rEnv(), maxBuffer: 1 << 26 });
  }
  const env = { ...rEnv(), R_LIBS: lib };
  const work = path.join(tmp, 'work');
  mkdirSync(work, { recursive: true });
  const { stdout } = await run('Rscript', [script, `http://127.0.0.1:${proxyPort}/ocpu`, work], { cwd: tmp, env, maxBuffer: 1 << 26 });
  const out = JSON.parse(stdout.slice(stdout.indexOf('{')));
  const rows = (await direct('indapi', { var: 'ELEVATION', iso3: 'KEN', by: 'ADM1_NAME_ALT' })) as Array<Record<string, unknown>>;
  expect(out.hcapi.class).toBe('data.frame');
  expect(out.hcapi.adm1IsFactor).toBe(true);
  expect(out.hcapi.rows).toEqual(rows);
  // Kenya's 8 former provinces (Natural Earth admin-1) and the country row
  expect(rows.length).toBe(9);
  expect(out.dta.inWorkingDir).toBe(true);
  expect(existsSync(path.join(work, 'getLayer-ELEVATION-ADM1_NAME_ALT-KEN.dta'))).toBe(true);
  expect(out.dta.files).toContain('datapackage.json');
  // the same rows as the API's: the country row (no unit) and the 8 units
  expect(out.dta.adm1).toEqual(rows.map((r) => r.ADM1_NAME_ALT ?? null));
  expect(out.dta.ELEVATION).toEqual(rows.map((r) => r.ELEVATION));
  expect(out.category.class).toBe('data.frame');
  expect(out.category.rows).toEqual(await direct('category', { q: 'elevation' }));
  expect(out.category.rows.map((r: { code: string }) => r.code)).toContain('ELEVATION');
  // the proxy answered 503 once; the package waited Retry-After (1 s) and asked again
  const calls = seen.filter((s) => s.path.endsWith('/R/category/json'));
  expect(calls.map((c) => c.status)).toEqual([503, 0]);
  expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(900);
  expect(out.retry.same).toBe(true);
  expect(seen.every((s) => s.path.startsWith('/ocpu/'))).toBe(true);
  // the user agent names the package and its version
  expect(calls[0].agent).toMatch(/^indapi3 R package \d+\.\d+\.\d+ \(httr2 /);
}, 120_000);
