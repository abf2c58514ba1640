/**
 * Interop: the national series against their sources read in R. PWT_POP of Nigeria and
 * Ethiopia 1961-2017 equals `pwt9.1$pop` (r-cran-pwt9) and Kenya's GM_LIFE_EXP equals dslabs'
 * `gapminder$life_expectancy` for every year, through the engine and through the CSV, Stata and
 * RDS files R reads back (long, wide, and `change` packages with the change's unit in their
 * labels); several years equal single-year calls; `change` equals the difference; Eritrea (not
 * in PWT 9.1) is NA, not a number.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/core/api';
import { genFile } from '../../src/core/formats/index';
import { createNodeEngine } from '../../src/node/engine';
import { buildPackage, LAYER_PACKAGE } from '../../src/core/package';

const YEARS = Array.from({ length: 57 }, (_, i) => 1961 + i);
const engine = createNodeEngine('public/data');
let dir = '';

/** Runs an R script, returning its JSON output. */
function r<T>(script: string, ...args: string[]): T {
  const out = execFileSync('Rscript', ['-e', script, ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  return JSON.parse(out) as T;
}

/** Rows of a long table as a map `ISO3 year` -> value of `code` (undefined when absent). */
function byUnitYear(rows: Row[], code: string): Map<string, number | undefined> {
  return new Map(rows.map((x) => [`${x.ISO3} ${x.year}`, x[code] as number | undefined]));
}

let pwt: Record<string, { year: number[]; pop: number[] }>;
let gm: { year: number[]; life: number[] };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'series-'));
  pwt = r(String.raw`suppressMessages({ library(pwt9); library(jsonlite) })
p <- pwt9.1[pwt9.1$isocode %in% c("NGA", "ETH") & pwt9.1$year >= 1961, ]
cat(toJSON(lapply(split(p, as.character(p$isocode)), function(d) list(year = d$year, pop = round(d$pop, 3))), digits = NA))`);
  gm = r(String.raw`suppressMessages({ library(dslabs); library(jsonlite) })
g <- gapminder[gapminder$country == "Kenya" & !is.na(gapminder$life_expectancy), ]
cat(toJSON(list(year = g$year, life = round(g$life_expectancy, 2)), digits = NA))`);
});
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('national series against R', () => {
  it('PWT_POP of NGA and ETH 1961-2017 equals pwt9.1 pop (rounded to the record\'s 3 decimals), one row per country and year', async () => {
    const rows = await engine.getLayer({ var: ['PWT_POP'], iso3: ['NGA', 'ETH'], year: YEARS }) as Row[];
    expect(rows).toHaveLength(2 * 57);
    const got = byUnitYear(rows, 'PWT_POP');
    for (const iso of ['NGA', 'ETH']) {
      expect(pwt[iso].year).toEqual(YEARS);
      pwt[iso].year.forEach((y, i) => expect(got.get(`${iso} ${y}`), `${iso} ${y}`).toBeCloseTo(pwt[iso].pop[i], 9));
    }
  });

  it('KEN GM_LIFE_EXP equals dslabs gapminder life_expectancy for every year it has', async () => {
    const rows = await engine.getLayer({ var: ['GM_LIFE_EXP'], iso3: ['KEN'], year: gm.year }) as Row[];
    const got = byUnitYear(rows, 'GM_LIFE_EXP');
    expect(gm.year.length).toBeGreaterThan(50);
    gm.year.forEach((y, i) => expect(got.get(`KEN ${y}`), String(y)).toBeCloseTo(gm.life[i], 9));
  });

  it('year = c(2000, 2005) equals two single-year calls; change = "diff" equals their difference; ERI is NA', async () => {
    const both = await engine.getLayer({ var: ['PWT_POP'], iso3: ['NGA', 'ETH', 'ERI'], year: [2000, 2005] }) as Row[];
    const one = [...await engine.getLayer({ var: ['PWT_POP'], iso3: ['NGA', 'ETH', 'ERI'], year: [2000] }) as Row[], ...await engine.getLayer({ var: ['PWT_POP'], iso3: ['NGA', 'ETH', 'ERI'], year: [2005] }) as Row[]];
    expect(both).toEqual(one);
    const eri = both.filter((x) => x.ISO3 === 'ERI');
    expect(eri).toHaveLength(2);
    for (const x of eri) expect(x.PWT_POP).toBeUndefined();
    const diff = await engine.getLayer({ var: ['PWT_POP'], iso3: ['NGA', 'ETH', 'ERI'], year: [2000, 2005], change: 'diff' }) as Row[];
    const v = byUnitYear(both, 'PWT_POP');
    for (const iso of ['NGA', 'ETH']) {
      const d = diff.find((x) => x.ISO3 === iso)!;
      expect(d.PWT_POP as number).toBeCloseTo(v.get(`${iso} 2005`)! - v.get(`${iso} 2000`)!, 9);
      expect([d.year_from, d.year_to]).toEqual([2000, 2005]);
    }
    expect(diff.find((x) => x.ISO3 === 'ERI')!.PWT_POP).toBeUndefined();
  });

  it('a year not held is refused naming year and the years held', async () => {
    await expect(engine.getLayer({ var: ['GM_LIFE_EXP'], iso3: ['KEN'], year: [2017] })).rejects.toThrow(/'year': GM_LIFE_EXP does not hold 2017; it holds 1960-2016/);
  });

  it('the long table in CSV, dta and rds, read by R, equals pwt9.1 (ERI NA)', async () => {
    const args = { var: ['PWT_POP'], iso3: ['NGA', 'ETH', 'ERI'], year: YEARS };
    const table = await engine.getLayerTable(args);
    for (const format of ['csv', 'dta', 'rds']) {
      const res = await genFile({ format, method: 'getLayer', args, table, meta: table.meta, now: new Date('2026-11-29T00:00:00Z'), requestUrl: 'http://localhost/ocpu/library/indapi3/R/indapi' });
      const f = res.files.find((x) => x.name.endsWith(`.${format}`) && !x.name.startsWith('meta'))!;
      writeFileSync(join(dir, `t.${format}`), f.bytes);
      expect(new TextDecoder().decode(res.files.find((x) => x.name === 'README.md')!.bytes)).toContain('## Years\n\nLong form: one row per unit and year (column `year`');
    }
    const back = r<Record<string, { iso: string[]; year: number[]; pop: Array<number | null>; ok: boolean }>>(String.raw`suppressMessages({ library(pwt9); library(jsonlite); library(haven) })
d <- commandArgs(TRUE)[1]
ref <- pwt9.1[pwt9.1$isocode %in% c("NGA", "ETH") & pwt9.1$year >= 1961, c("isocode", "year", "pop")]
chk <- function(t) {
  t <- as.data.frame(t)
  t[] <- lapply(t, function(x) if (inherits(x, "haven_labelled")) as.character(as_factor(x)) else if (is.factor(x)) as.character(x) else as.vector(x))
  m <- merge(t[t$ISO3 != "ERI", ], ref, by.x = c("ISO3", "year"), by.y = c("isocode", "year"))
  list(iso = as.character(t$ISO3), year = as.numeric(t$year), pop = t$PWT_POP,
       ok = nrow(m) == 114 && isTRUE(all.equal(m$PWT_POP, round(m$pop, 3), tolerance = 1e-12)) && all(is.na(t$PWT_POP[t$ISO3 == "ERI"])))
}
cat(toJSON(list(csv = chk(read.csv(file.path(d, "t.csv"), na.strings = "")), dta = chk(read_dta(file.path(d, "t.dta"))),
  rds = chk(readRDS(file.path(d, "t.rds")))), digits = NA, na = "null", auto_unbox = TRUE))`, dir);
    for (const format of ['csv', 'dta', 'rds']) {
      expect(back[format].ok, format).toBe(true);
      expect(back[format].iso.filter((x) => x === 'ERI')).toHaveLength(57);
    }
  });

  it('change packages (diff and pct) in CSV, dta and rds, read by R, hold year_from, year_to and the change of pwt9.1 with its unit in the labels', async () => {
    const files: Record<string, string> = {};
    for (const change of ['diff', 'pct'] as const) {
      const args = { var: ['PWT_POP'], iso3: ['NGA', 'ETH', 'ERI'], year: [2000, 2017], change };
      const table = await engine.getLayerTable(args);
      for (const format of ['csv', 'dta', 'rds']) {
        const res = await genFile({ format, method: 'getLayer', args, table, meta: table.meta, now: new Date('2026-11-29T00:00:00Z'), requestUrl: 'http://localhost/ocpu/library/indapi3/R/indapi' });
        writeFileSync(join(dir, `${change}.${format}`), res.files.find((x) => x.name.endsWith(`.${format}`) && !x.name.startsWith('meta'))!.bytes);
        if (format === 'csv') {
          files[change] = new TextDecoder().decode(res.files.find((x) => x.name === 'README.md')!.bytes);
          const dp = JSON.parse(new TextDecoder().decode(res.files.find((x) => x.name === 'datapackage.json')!.bytes));
          expect(dp.resources[0].schema.fields.find((f: { name: string }) => f.name === 'PWT_POP').unit).toBe(change === 'pct' ? '%' : 'million people');
        }
      }
    }
    expect(files.diff).toMatch(/## Years\n\nOne row per unit: the change from `year_from` to `year_to` \(to - from, in the unit of the indicator;.*`PWT_POP` \(million people\)/);
    expect(files.pct).toMatch(/100 \* \(to - from\) \/ from, in percent;.*`PWT_POP` \(%\)/);
    const back = r<Record<string, { names: string[]; ok: boolean; eri: boolean; label: string }>>(String.raw`suppressMessages({ library(pwt9); library(jsonlite); library(haven) })
d <- commandArgs(TRUE)[1]
p <- pwt9.1[pwt9.1$isocode %in% c("NGA", "ETH") & pwt9.1$year %in% c(2000, 2017), c("isocode", "year", "pop")]
p$pop <- round(p$pop, 3)
want <- function(i, change) { a <- p$pop[p$isocode == i & p$year == 2000]; b <- p$pop[p$isocode == i & p$year == 2017]; if (change == "diff") round(b - a, 3) else round(100 * (b - a) / a, 2) }
chk <- function(t, change, label) {
  t <- as.data.frame(t)
  iso <- if (inherits(t$ISO3, "haven_labelled")) as.character(as_factor(t$ISO3)) else as.character(t$ISO3)
  ok <- all(t$year_from == 2000 & t$year_to == 2017) && all(sapply(c("NGA", "ETH"), function(i) isTRUE(all.equal(as.vector(t$PWT_POP[iso == i]), want(i, change), tolerance = 1e-12))))
  list(names = names(t), ok = ok, eri = is.na(t$PWT_POP[iso == "ERI"]), label = if (is.null(label)) "" else label)
}
out <- list()
for (ch in c("diff", "pct")) {
  dta <- read_dta(file.path(d, paste0(ch, ".dta"))); rds <- readRDS(file.path(d, paste0(ch, ".rds")))
  out[[paste0(ch, ".csv")]] <- chk(read.csv(file.path(d, paste0(ch, ".csv")), na.strings = ""), ch, NULL)
  out[[paste0(ch, ".dta")]] <- chk(dta, ch, attr(dta$PWT_POP, "label"))
  out[[paste0(ch, ".rds")]] <- chk(rds, ch, attr(rds$PWT_POP, "label"))
}
cat(toJSON(out, auto_unbox = TRUE))`, dir);
    for (const change of ['diff', 'pct']) {
      for (const format of ['csv', 'dta', 'rds']) {
        const b = back[`${change}.${format}`];
        expect(b.names, `${change}.${format}`).toEqual(['ISO3', 'ADM0_NAME', 'year_from', 'year_to', 'PWT_POP']);
        expect(b.ok, `${change}.${format}`).toBe(true);
        expect(b.eri, `${change}.${format}`).toBe(true);
        if (format !== 'csv') expect(b.label).toBe(`Population (PWT 9.1): change 2000-2017 (${change === 'pct' ? '%' : 'million people'})`);
      }
    }
  });

  it('the wide dta (one column per year), read by haven, equals pwt9.1 reshaped wide (ERI NA)', async () => {
    const ys = Array.from({ length: 18 }, (_, i) => 2000 + i);
    const args = { var: ['PWT_POP'], iso3: ['NGA', 'ETH', 'ERI'], year: ys };
    const out = await buildPackage(engine, { kind: LAYER_PACKAGE, query: args, request: args, format: 'dta', layout: 'wide', now: new Date('2026-11-29T00:00:00Z') });
    writeFileSync(join(dir, 'wide.dta'), out.files.find((x) => x.name.endsWith('.dta') && !x.name.startsWith('meta'))!.bytes);
    expect(new TextDecoder().decode(out.files.find((x) => x.name === 'README.md')!.bytes)).toContain('Wide form: one row per unit and one column per indicator and year (`PWT_POP_2000` ...');
    const back = r<{ rows: number; names: string[]; ok: boolean; eri: boolean }>(String.raw`suppressMessages({ library(pwt9); library(jsonlite); library(haven) })
t <- as.data.frame(read_dta(file.path(commandArgs(TRUE)[1], "wide.dta")))
t$ISO3 <- as.character(if (inherits(t$ISO3, "haven_labelled")) as_factor(t$ISO3) else t$ISO3)
p <- pwt9.1[pwt9.1$isocode %in% c("NGA", "ETH") & pwt9.1$year %in% 2000:2017, c("isocode", "year", "pop")]
p$isocode <- as.character(p$isocode)
w <- reshape(p, idvar = "isocode", timevar = "year", direction = "wide")
ok <- all(sapply(c("NGA", "ETH"), function(i) isTRUE(all.equal(unname(unlist(t[t$ISO3 == i, paste0("PWT_POP_", 2000:2017)])), unname(round(unlist(w[w$isocode == i, paste0("pop.", 2000:2017)]), 3)), tolerance = 1e-12))))
cat(toJSON(list(rows = nrow(t), names = names(t), ok = ok, eri = all(is.na(unlist(t[t$ISO3 == "ERI", paste0("PWT_POP_", 2000:2017)])))), auto_unbox = TRUE))`, dir);
    expect(back.rows).toBe(3);
    expect(back.names.filter((n) => n.startsWith('PWT_POP_'))).toEqual(ys.map((y) => `PWT_POP_${y}`));
    expect(back.names).not.toContain('year');
    expect(back.ok).toBe(true);
    expect(back.eri).toBe(true);
  });
});
