/**
 * Interop: R opens every fixture package file. Stata 118 is read with `haven::read_dta`
 * (`foreign::read.dta` reads only formats up to 117); `foreign` is checked to refuse it
 * knowingly. `readRDS`, `terra::rast`, `raster::brick` / `raster::raster` open the rasters,
 * `sf::st_read` and `terra::vect` the GeoJSON.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAllPackages, type WrittenPackage } from './packages.fixture';

let root = '';
let pkgs: WrittenPackage[] = [];
let R: any;

const SCRIPT = String.raw`
suppressMessages({ library(haven); library(jsonlite); library(terra); library(raster); library(sf) })
root <- commandArgs(TRUE)[1]
f1 <- function(dir, pat) list.files(file.path(root, dir), pattern = pat, full.names = TRUE)
out <- list()
d <- read_dta(f1("ken-dta", "\\.dta$"))
out$dta <- list(names = names(d), label = attr(d, "label"),
  varlabels = unname(sapply(d, function(x) attr(x, "label"))),
  ELEVATION = d$ELEVATION, AREA_TOTAL = d$AREA_TOTAL,
  zone = as.character(as_factor(d$ELEV_ZONE)), adm1 = as.character(as_factor(d$ADM1_NAME_ALT)),
  zoneLabels = as.list(attr(d$ELEV_ZONE, "labels")), iso3 = d$ISO3)
di <- read_dta(f1("interval-dta", "\\.dta$"))
out$dtaInterval <- list(elev = as.character(as_factor(di$ELEVATION)), count = di$ELEV_ZONE_count)
out$foreign <- tryCatch({ foreign::read.dta(f1("ken-dta", "\\.dta$")); "read" }, error = function(e) conditionMessage(e))
r <- readRDS(f1("ken-rds", "\\.rds$"))
out$rds <- list(class = class(r), names = names(r), nrow = nrow(r), varlabels = attr(r, "var.labels"),
  datalabel = attr(r, "datalabel"), timestamp = attr(r, "time.stamp"),
  zoneLevels = levels(r$ELEV_ZONE), zone = as.character(r$ELEV_ZONE), adm1 = as.character(r$ADM1_NAME_ALT),
  ELEVATION = r$ELEVATION, isFactor = is.factor(r$ELEV_ZONE), elevNA = is.na(r$ELEVATION), rowNames = attr(r, "row.names"))
e <- new.env()
nm <- load(f1("ken-rda", "\\.rda$"), envir = e)
a <- get(nm, envir = e)
out$rda <- list(objects = nm, class = class(a), names = names(a), nrow = nrow(a), varlabels = attr(a, "var.labels"),
  datalabel = attr(a, "datalabel"), timestamp = attr(a, "time.stamp"),
  zoneLevels = levels(a$ELEV_ZONE), zone = as.character(a$ELEV_ZONE), adm1 = as.character(a$ADM1_NAME_ALT),
  ELEVATION = a$ELEVATION, AREA_TOTAL = a$AREA_TOTAL, isFactor = is.factor(a$ELEV_ZONE), label = attr(a$ELEVATION, "label"),
  identicalToRds = isTRUE(all.equal(a, r, check.attributes = TRUE)),
  readRDSrefuses = tryCatch({ readRDS(f1("ken-rda", "\\.rda$")); FALSE }, error = function(e) TRUE))
e2 <- new.env()
nm2 <- load(f1("interval-rda", "\\.rda$"), envir = e2)
out$rdaInterval <- list(objects = nm2, levels = levels(get(nm2, e2)$ELEVATION), count = get(nm2, e2)$ELEV_ZONE_count)
out$rdsNotLoadable <- tryCatch({ load(f1("ken-rds", "\\.rds$"), envir = new.env()); FALSE }, error = function(e) TRUE, warning = function(w) TRUE)
ri <- readRDS(f1("interval-rds", "\\.rds$"))
out$rdsInterval <- list(levels = levels(ri$ELEVATION), count = ri$ELEV_ZONE_count, countType = typeof(ri$ELEV_ZONE_count))
csv <- read.csv(f1("ken-csv", "^getLayer.*\\.csv$"), stringsAsFactors = FALSE, na.strings = "", encoding = "UTF-8")
out$csv <- list(names = names(csv), adm1 = csv$ADM1_NAME_ALT, ELEVATION = csv$ELEVATION)
rasters <- list()
for (f in c(f1("ken-tif", "\\.tif$"), f1("ken-asc", "\\.asc$"), f1("ken-grd", "\\.grd$"), f1("ken-zone-grd", "\\.grd$"))) {
  t <- rast(f)
  v <- values(t, mat = TRUE)
  cl <- cats(t)[[1]]
  b <- if (nlyr(t) > 1) brick(f) else raster(f)
  rasters[[basename(f)]] <- list(nlyr = nlyr(t), ext = as.vector(ext(t)), res = res(t), names = names(t),
    values = as.vector(v[, 1]), lonlat = is.lonlat(t), categories = if (is.null(cl)) NULL else as.character(cl[[2]]),
    factors = is.factor(t),
    rasterValues = as.vector(as.matrix(raster::values(b))[, 1]), rasterNlayers = nlayers(b), rasterExt = as.vector(raster::extent(b)),
    rasterNames = names(b), rasterLevels = if (nlayers(b) == 1 && is.factor(b)) as.character(levels(b)[[1]][[2]]) else NULL)
}
out$rasters <- rasters
g <- st_read(f1("ken-json-cells", "\\.geojson$"), quiet = TRUE)
gv <- vect(f1("ken-json-cells", "\\.geojson$"))
out$geojson <- list(names = names(g), n = nrow(g), iso3 = unique(g$ISO3), adm0 = unique(g$ADM0_NAME), elev = g$ELEVATION,
  zone = g$ELEV_ZONE[1:3], crs = st_crs(g)$epsg, terraNames = names(gv))
sf_use_s2(FALSE)
z <- st_read(f1("ken-json", "\\.geojson$"), quiet = TRUE)
zv <- vect(f1("ken-json", "\\.geojson$"))
out$zonal <- list(names = names(z), n = nrow(z), adm1 = z$ADM1_NAME_ALT, elev = z$ELEVATION, cells = z$CELLS,
  geomType = as.character(st_geometry_type(z)), valid = st_is_valid(z), areaDeg2 = as.numeric(st_area(st_set_crs(z, NA))),
  unionAreaDeg2 = as.numeric(st_area(st_union(st_set_crs(z, NA)))), terraN = nrow(zv), terraValid = is.valid(zv),
  desc = jsonlite::fromJSON(f1("ken-json", "\\.geojson$"), simplifyVector = FALSE)$description)
cat(toJSON(out, auto_unbox = TRUE, digits = NA, na = "null"))
`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'indapi-r-'));
  pkgs = await writeAllPackages(root);
  writeFileSync(join(root, 'check.R'), SCRIPT);
  R = JSON.parse(execFileSync('Rscript', [join(root, 'check.R'), root], { encoding: 'utf8' }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ELEV = [1523.5, 1610, 1702.25, 1800, 2950, 1400, 1488, null, 1650, 2100, 420, 480.5, 515, 1320, 1999, -12, 233, 901, null, null];
const ZONE_VAL = [3, 3, 3, 3, 3, 2, 2, null, 3, 3, 1, 1, 2, 2, 3, 1, 1, 2, null, null];
const ZONE_IDX = [2, 2, 2, 2, 2, 1, 1, null, 2, 2, 0, 0, 1, 1, 2, 0, 0, 1, null, null];

describe('R reads the fixture packages', () => {
  it('writes every case', () => expect(pkgs).toHaveLength(14));

  it('haven::read_dta: names, data label, variable labels with units, value labels, missing values', () => {
    const d = R.dta;
    expect(d.names).toEqual(['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE']);
    expect(d.label).toBe('indapi3 getLayer: ELEVATION, AREA_TOTAL, ELEV_ZONE by ADM1_NAME_ALT in KEN');
    expect(d.varlabels).toEqual(['ISO 3166-1 alpha-3 code', 'Country', 'Admin-1 unit (fixture)', 'Elevation (fixture) (m)', 'Total area (fixture) (km2)', 'Elevation zone (fixture)']);
    expect(d.ELEVATION).toEqual([1093, 1923, null, 1502.5]);
    expect(d.AREA_TOTAL).toEqual([591958.4, 13176.2, 83040.5, 182505]);
    expect(d.zone).toEqual(['Midland (500-1500 m)', 'Highland (> 1500 m)', 'Lowland (< 500 m)', null]);
    expect(d.adm1).toEqual([null, 'Central', 'Région "Côte", Est', 'Rift Valley']);
    expect(d.zoneLabels).toEqual({ 'Lowland (< 500 m)': 1, 'Midland (500-1500 m)': 2, 'Highland (> 1500 m)': 3 });
    expect(d.iso3).toEqual(['KEN', 'KEN', 'KEN', 'KEN']);
    expect(R.dtaInterval).toEqual({ elev: ['(-500,500]', '(500,1500]', '(1500,3000]', '(3000,6000]'], count: [301234, 402345, 98765, 1234] });
  });

  it('foreign::read.dta does not read format 118 (haven is the reader to use)', () => {
    expect(R.foreign).not.toBe('read');
  });

  it('readRDS: a data.frame with var.labels, datalabel, time.stamp, factors and NAs', () => {
    const r = R.rds;
    expect(r.class).toBe('data.frame');
    expect(r.nrow).toBe(4);
    expect(r.rowNames).toEqual([1, 2, 3, 4]);
    expect(r.varlabels[3]).toBe('Elevation (fixture) (m)');
    expect(r.datalabel).toMatch(/^indapi3 getLayer/);
    expect(r.timestamp).toBe('04 Mar 2026 05:06');
    expect(r.isFactor).toBe(true);
    expect(r.zoneLevels).toEqual(['Lowland (< 500 m)', 'Midland (500-1500 m)', 'Highland (> 1500 m)']);
    expect(r.zone).toEqual(['Midland (500-1500 m)', 'Highland (> 1500 m)', 'Lowland (< 500 m)', null]);
    expect(r.adm1).toEqual([null, 'Central', 'Région "Côte", Est', 'Rift Valley']);
    expect(r.ELEVATION).toEqual([1093, 1923, null, 1502.5]);
    expect(r.elevNA).toEqual([false, false, true, false]);
    expect(R.rdsInterval).toEqual({ levels: ['(-500,500]', '(500,1500]', '(1500,3000]', '(3000,6000]'], count: [301234, 402345, 98765, 1234], countType: 'integer' });
  });

  it('load: the .rda is an RData file holding one data.frame named after the file, equal to the .rds one', () => {
    const a = R.rda;
    expect(a.objects).toBe('getLayer.ELEVATION.AREA_TOTAL.ELEV_ZONE.ADM1_NAME_ALT.KEN');
    expect(a.class).toBe('data.frame');
    expect(a.names).toEqual(['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE']);
    expect(a.nrow).toBe(4);
    expect(a.varlabels[3]).toBe('Elevation (fixture) (m)');
    expect(a.label).toBe('Elevation (fixture) (m)');
    expect(a.datalabel).toBe('indapi3 getLayer: ELEVATION, AREA_TOTAL, ELEV_ZONE by ADM1_NAME_ALT in KEN');
    expect(a.timestamp).toBe('04 Mar 2026 05:06');
    expect(a.isFactor).toBe(true);
    expect(a.zoneLevels).toEqual(['Lowland (< 500 m)', 'Midland (500-1500 m)', 'Highland (> 1500 m)']);
    expect(a.zone).toEqual(['Midland (500-1500 m)', 'Highland (> 1500 m)', 'Lowland (< 500 m)', null]);
    expect(a.adm1).toEqual([null, 'Central', 'Région "Côte", Est', 'Rift Valley']);
    expect(a.ELEVATION).toEqual([1093, 1923, null, 1502.5]);
    expect(a.identicalToRds).toBe(true);
    expect(a.readRDSrefuses).toBe(true);
    expect(R.rdsNotLoadable).toBe(true);
    expect(R.rdaInterval).toEqual({ objects: 'getLayer.ELEV_ZONE.ELEVATION.SSA', levels: ['(-500,500]', '(500,1500]', '(1500,3000]', '(3000,6000]'], count: [301234, 402345, 98765, 1234] });
  });

  it('read.csv: header, UTF-8, quoting, empty = NA', () => {
    expect(R.csv.names).toEqual(['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'ELEVATION', 'AREA_TOTAL', 'ELEV_ZONE']);
    expect(R.csv.adm1).toEqual([null, 'Central', 'Région "Côte", Est', 'Rift Valley']);
    expect(R.csv.ELEVATION).toEqual([1093, 1923, null, 1502.5]);
  });

  it('terra::rast and raster open every raster with extent, cell size, no-data and categories', () => {
    const rs = R.rasters as Record<string, any>;
    const names = Object.keys(rs);
    expect(names).toHaveLength(6);
    for (const [name, r] of Object.entries(rs)) {
      expect(r.ext[0]).toBeCloseTo(36, 9);
      expect(r.ext[1]).toBeCloseTo(36 + 5 / 12, 9);
      expect(r.ext[2]).toBeCloseTo(1 / 6, 9);
      expect(r.ext[3]).toBeCloseTo(0.5, 9);
      expect(r.res[0]).toBeCloseTo(1 / 12, 9);
      expect(r.res[1]).toBeCloseTo(1 / 12, 9);
      expect(r.lonlat).toBe(true);
      expect(r.rasterExt[0]).toBeCloseTo(36, 9);
      const isZone = name.includes('ELEV_ZONE');
      if (name.endsWith('.grd') && r.nlyr === 1) {
        // single-band class grd: the layer keeps its code as name (not "label") and its levels; values are the catalog class values
        expect(r.names).toBe('ELEV_ZONE');
        expect(r.rasterNames).toBe('ELEV_ZONE');
        expect(r.factors).toBe(true);
        expect(r.categories).toEqual(['Lowland (< 500 m)', 'Midland (500-1500 m)', 'Highland (> 1500 m)']);
        expect(r.rasterLevels).toEqual(['Lowland (< 500 m)', 'Midland (500-1500 m)', 'Highland (> 1500 m)']);
        expect(r.values).toEqual(ZONE_VAL);
        expect(r.rasterValues).toEqual(ZONE_VAL);
      } else if (name.endsWith('.grd')) {
        // multi-band grd: no levels (the format's one attribute table would apply to every band)
        expect(r.nlyr).toBe(2);
        expect(r.rasterNlayers).toBe(2);
        expect(r.names).toEqual(['ELEVATION', 'ELEV_ZONE']);
        expect(r.factors).toEqual([false, false]);
        expect(r.values).toEqual(ELEV);
        expect(r.rasterValues).toEqual(ELEV);
      } else if (isZone) {
        expect(r.categories).toEqual(['Lowland (< 500 m)', 'Midland (500-1500 m)', 'Highland (> 1500 m)']);
        expect(r.values).toEqual(ZONE_IDX);
        expect(r.rasterValues).toEqual(ZONE_IDX);
      } else {
        expect(r.names).toBe('ELEVATION');
        expect(r.values).toEqual(ELEV);
        expect(r.rasterValues).toEqual(ELEV);
      }
    }
  });

  it('sf::st_read and terra::vect read the per-cell GeoJSON: cell values, no by keys', () => {
    const g = R.geojson;
    expect(g.names).toEqual(['CELL5M', 'X', 'Y', 'ISO3', 'ADM0_NAME', 'ELEVATION', 'ELEV_ZONE', 'geometry']);
    expect(g.terraNames).toEqual(['CELL5M', 'X', 'Y', 'ISO3', 'ADM0_NAME', 'ELEVATION', 'ELEV_ZONE']);
    expect(g.n).toBe(18);
    expect(g.iso3).toBe('KEN');
    expect(g.adm0).toBe('Kenya');
    expect(g.elev).toEqual(ELEV.slice(0, 18));
    expect(g.zone).toEqual(['Highland (> 1500 m)', 'Highland (> 1500 m)', 'Highland (> 1500 m)']);
    expect(g.crs).toBe(4326);
  });

  it('sf and terra read the zonal GeoJSON: one valid polygon per unit with its summary, areas adding up to the cells', () => {
    const z = R.zonal;
    expect(z.names).toEqual(['ISO3', 'ADM0_NAME', 'ADM1_NAME_ALT', 'CELLS', 'ELEVATION', 'ELEV_ZONE', 'geometry']);
    expect(z.n).toBe(4);
    expect(z.terraN).toBe(4);
    expect(z.adm1).toEqual(['Central', 'Rift Valley', 'Région "Côte", Est', null]);
    expect(z.elev).toEqual([1505.4, 1931.6, 327.3, 901]);
    expect(z.cells).toEqual([4, 8, 5, 1]);
    expect(z.valid).toEqual([true, true, true, true]);
    expect(z.terraValid).toEqual([true, true, true, true]);
    expect(z.geomType).toEqual(['POLYGON', 'POLYGON', 'POLYGON', 'POLYGON']);
    (z.areaDeg2 as number[]).forEach((a, k) => expect(a).toBeCloseTo(z.cells[k] / 144, 12));
    expect(z.unionAreaDeg2).toBeCloseTo(18 / 144, 12);
    expect(z.desc).toMatch(/summary/);
  });
});
