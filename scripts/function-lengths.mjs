// Lists the longest functions (declarations, expressions, arrows, methods, accessors) of the
// TypeScript sources under src/ and workers/ (tests excluded), by lines from the first line of
// the function to its last. Usage: node scripts/function-lengths.mjs [--top N] [--max LINES]
// With --max it exits 1 when a function is longer. Parsed with the TypeScript compiler API.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Every function of the files under `dirs`, longest first: { file, name, line, lines }. */
export function functionLengths(dirs = ['src', 'workers']) {
  const out = [];
  for (const dir of dirs) {
    for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (!e.isFile() || !/\.tsx?$/.test(e.name) || /\.test\.tsx?$/.test(e.name) || e.name.endsWith('.d.ts')) continue;
      const file = join(e.parentPath, e.name);
      const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, e.name.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
      const visit = (n) => {
        if (ts.isFunctionLike(n) && n.body) {
          const a = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line, b = sf.getLineAndCharacterOfPosition(n.end).line;
          const named = n.name ?? (ts.isVariableDeclaration(n.parent) || ts.isPropertyAssignment(n.parent) ? n.parent.name : undefined);
          out.push({ file, name: named ? named.getText(sf) : '(anonymous)', line: a + 1, lines: b - a + 1 });
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
  }
  return out.sort((x, y) => y.lines - x.lines);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => { const i = process.argv.indexOf(k); return i > 0 ? Number(process.argv[i + 1]) : d; };
  const top = arg('--top', 10), max = arg('--max', Infinity);
  const all = functionLengths();
  for (const f of all.slice(0, top)) console.log(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`);
  const over = all.filter((f) => f.lines > max);
  if (over.length) { console.error(`${over.length} function(s) over ${max} lines`); process.exit(1); }
}
