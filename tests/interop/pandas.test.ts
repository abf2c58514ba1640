/**
 * Interop: pandas (Debian python3-pandas, `/usr/bin/python3`) reads the Stata files with
 * their labels (`read_stata`, `StataReader.variable_labels` / `value_labels`), the CSV
 * (`read_csv`), and `zipfile` lists exactly the session's files in every ZIP.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAllPackages, type WrittenPackage } from './packages.fixture';

let root = '';
let pkgs: WrittenPackage[] = [];
let P: any;

const SCRIPT = `
import glob, json, math, sys, zipfile
import pandas as pd
root = sys.argv[1]
one = lambda d, pat: sorted(glob.glob(f"{root}/{d}/{pat}"))[0]
out = {}
f = one("ken-dta", "getLayer*.dta")
df = pd.read_stata(f)
with pd.io.stata.StataReader(f) as r:
    out["varlabels"] = r.variable_labels()
    out["valuelabels"] = {k: {str(a): b for a, b in v.items()} for k, v in r.value_labels().items()}
    out["datalabel"] = r.data_label
clean = lambda xs: [None if (isinstance(x, float) and math.isnan(x)) else x for x in xs]
out["dta"] = {"columns": list(df.columns), "zone": clean([str(x) if isinstance(x, str) else x for x in df["ELEV_ZONE"].astype(object)]),
              "adm1": clean(list(df["ADM1_NAME_ALT"].astype(object))), "elev": clean(df["ELEVATION"].tolist()),
              "zoneIsCategorical": str(df["ELEV_ZONE"].dtype) == "category"}
c = pd.read_csv(one("ken-csv", "getLayer*.csv"), keep_default_na=False, na_values=[""])
out["csv"] = {"columns": list(c.columns), "adm1": clean(c["ADM1_NAME_ALT"].tolist()), "elev": clean(c["ELEVATION"].tolist())}
m = pd.read_csv(one("ken-csv", "meta.csv"), keep_default_na=False)
out["meta"] = {"columns": list(m.columns), "codes": m["code"].tolist()}
out["zips"] = {z.split("/")[-1][:-4]: zipfile.ZipFile(z).namelist() for z in glob.glob(f"{root}/*.zip")}
print(json.dumps(out))
`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'indapi-pd-'));
  pkgs = await writeAllPackages(root);
  writeFileSync(join(root, 'check.py'), SCRIPT);
  P = JSON.parse(execFileSync('/usr/bin/python3', [join(root, 'check.py'), root], { encoding: 'utf8' }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('pandas reads the fixture packages', () => {
  it('read_stata: columns, categoricals from value labels, missing values', () => {
    expect(P.dta.columns).toEqual(['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE']);
    expect(P.dta.zoneIsCategorical).toBe(true);
    expect(P.dta.zone).toEqual(['Midland (500-1500 m)', 'Highland (> 1500 m)', 'Lowland (< 500 m)', null]);
    expect(P.dta.adm1).toEqual([null, 'Central', 'Région "Côte", Est', 'Rift Valley']);
    expect(P.dta.elev).toEqual([1093, 1923, null, 1502.5]);
  });
  it('StataReader: variable labels with units, value labels, data label', () => {
    expect(P.varlabels.ELEVATION).toBe('Elevation (fixture) (m)');
    expect(P.varlabels.AREA_TOTAL).toBe('Total area (fixture) (km2)');
    expect(P.valuelabels.ELEV_ZONE).toEqual({ 1: 'Lowland (< 500 m)', 2: 'Midland (500-1500 m)', 3: 'Highland (> 1500 m)' });
    expect(P.valuelabels.ADM1_NAME_ALT['102']).toBe('Région "Côte", Est');
    expect(P.datalabel).toMatch(/^indapi3 getLayer/);
  });
  it('read_csv: the table and meta.csv', () => {
    expect(P.csv.columns).toEqual(['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE']);
    expect(P.csv.adm1).toEqual([null, 'Central', 'Région "Côte", Est', 'Rift Valley']);
    expect(P.csv.elev).toEqual([1093, 1923, null, 1502.5]);
    expect(P.meta.columns).toEqual(['code', 'label', 'description', 'type', 'unit', 'version', 'aggFormula', 'period', 'category', 'subcategory', 'item', 'source', 'contact', 'downloadedOn', 'citation']);
  });
  it('every ZIP lists exactly the files of its session', () => {
    expect(Object.keys(P.zips).sort()).toEqual(pkgs.map((p) => p.name).sort());
    for (const p of pkgs) expect(P.zips[p.name]).toEqual(p.files);
  });
});
