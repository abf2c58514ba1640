/**
 * `npm run export -- --data <bundle folder> --out <table.csv> [--catalog-out <vi.csv>] [--classes auto|label|code]`:
 * writes a bundle as a CELL5M-style wide table and its catalog as an original-style vi.csv
 * (see export.ts). Progress on stderr. Exit codes: 0 done, 2 bad arguments, 1 failure.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { exportBundle, type ClassMode } from './export';

const USAGE = 'usage: npm run export -- --data <bundle folder> --out <table.csv> [--catalog-out <vi.csv>] [--classes auto|label|code]';

/**
 * Runs the command line.
 * @param argv arguments after the script name
 * @returns exit code
 */
export async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: {
      data: { type: 'string', default: 'public/data' },
      out: { type: 'string' },
      'catalog-out': { type: 'string' },
      classes: { type: 'string', default: 'auto' },
      help: { type: 'boolean' },
    } }));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (!values.out || !['auto', 'label', 'code'].includes(values.classes as string)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const tty = process.stderr.isTTY;
  const t0 = performance.now();
  let last = 0;
  try {
    const res = await exportBundle({
      data: resolve(values.data as string),
      out: resolve(values.out as string),
      catalogOut: values['catalog-out'] ? resolve(values['catalog-out'] as string) : undefined,
      classes: values.classes as ClassMode,
      onProgress: (done, total) => {
        const now = performance.now();
        if (done < total && now - last < (tty ? 200 : 5000)) return;
        last = now;
        const msg = `export: grid rows ${done}/${total} (${((100 * done) / total).toFixed(0)} %)`;
        process.stderr.write(tty ? `\r${msg}` : `${msg}\n`);
      },
    });
    if (tty) process.stderr.write('\n');
    process.stderr.write(`export: ${res.rows} rows x ${res.columns.length} columns, ${(res.bytes / 2 ** 20).toFixed(1)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s` +
      (res.classCodes.length ? `; class values written as codes: ${res.classCodes.join(', ')}` : '') + '\n');
    return 0;
  } catch (e) {
    process.stderr.write(`export failed: ${(e as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!)) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
