/**
 * `buildPackage`, the one use case behind the API's and the app's downloads, on the embedded
 * bundle: a catchment from a flat `xy` pair as the Catchment panel sends it (issue 23 item 1:
 * "number 36.81667 is not iterable" in the browser), and the formats' inputs.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import JSZip from 'jszip';
import { buildPackage } from '../../src/core/package';
import { downloadFormats, methodPackage } from '../../src/contract/methods';
import { catchmentArgs } from '../../src/core/catchment/query';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { zipFiles } from '../../src/core/formats';
import { createNodeEngine } from '../../src/node/engine';

const engine = createNodeEngine(join(__dirname, '..', '..', 'public', 'data'));
const PICK = [36.81667, -1.28333];

describe('buildPackage', () => {
  it('a catchment from a flat xy pair (the panel\'s args) in every catchment format', async () => {
    const args = { xy: PICK, minutes: [0, 60, 120], var: ['PN14_POP'] };
    const csv = await buildPackage(engine, { ...methodPackage('catchment', args), format: 'csv' });
    const text = new TextDecoder().decode(csv.files[0].bytes);
    expect(text.split('\n')[0]).toContain('band');
    expect(text).toContain('[0,60]');
    const tif = await buildPackage(engine, { ...methodPackage('catchment', args), format: 'tif ' });
    expect(tif.files[0].name).toMatch(/^catchment-TRAVEL_TIME-.*\.tif$/);
    const json = await buildPackage(engine, { ...methodPackage('catchment', args), format: 'geojson' });
    expect(json.zipName).toBe('catchment-FRICTION_WALK.json.zip');
    expect(JSON.parse(new TextDecoder().decode(json.files[0].bytes)).features).toHaveLength(2);
    // the GeoJSON package carries what every package carries: the README with sources and licences, meta.csv, terms
    expect(json.files.map((f) => f.name)).toEqual(['catchment-FRICTION_WALK-bands.geojson', 'meta.csv', 'README.md', 'datapackage.json', 'DESCRIPTION', 'terms.html']);
    const readme = new TextDecoder().decode(json.files.find((f) => f.name === 'README.md')!.bytes);
    expect(readme).toContain('catchment-FRICTION_WALK-bands.geojson');
    expect(readme).toMatch(/licen[cs]e/i);
    expect(new TextDecoder().decode(json.files.find((f) => f.name === 'meta.csv')!.bytes)).toContain('PN14_POP');
    const zip = await JSZip.loadAsync(await zipFiles(csv.files));
    expect(Object.keys(zip.files)).toContain(csv.files[0].name);
  });

  it('refuses an unknown format before running the query', async () => {
    let ran = false;
    const spy = { ...engine, getLayerTable: async () => { ran = true; throw new Error('ran'); } } as typeof engine;
    await expect(buildPackage(spy, { ...methodPackage('indapi', { var: ['ELEVATION'], iso3: ['KEN'] }), format: 'docx' })).rejects.toMatchObject({ code: 'BAD_FORMAT' });
    expect(ran).toBe(false);
  });

  it('a comparison writes tables only, its value the file names', async () => {
    await expect(buildPackage(engine, { ...methodPackage('similar', { x: 'Eastern', var: ['ELEVATION'], by: 1, iso3: ['KEN'] }), format: 'tif' })).rejects.toMatchObject({ code: 'BAD_FORMAT' });
    const s = await buildPackage(engine, { ...methodPackage('similar', { x: 'Eastern', var: ['ELEVATION'], by: 1, iso3: ['KEN'] }), format: 'dta' });
    expect(s.files[0].name).toMatch(/^similar-ELEVATION-1-KEN\.dta$/);
    expect(s.value).toEqual(s.files.map((f) => f.name));
  });

  it('writes the result handed in (the one on screen) byte for byte as the query would, running no query', async () => {
    const NOW = new Date('2026-01-02T03:04:05Z');
    const ms = { xy: [[36.82, -1.29], [39.67, -4.05]], names: ['Nairobi', 'Mombasa'], minutes: [0, 60, 120], var: ['PN14_POP'], marketshed: true };
    const shown = await engine.catchment!(catchmentArgs(ms));
    const summary = { var: ['ELEVATION'], iso3: ['KEN'], by: ['ADM1_NAME_ALT'] };
    const table = await engine.getLayerTable(summary);
    // an engine whose queries fail: nothing may run again
    const none = async () => { throw new Error('ran again'); };
    const dead = { ...engine, catchment: none, getLayerTable: none, getLayerWKT: none, similar: none } as unknown as typeof engine;
    const hash = (fs: Array<{ name: string; bytes: Uint8Array }>) => fs.map((f) => `${f.name}:${createHash('sha256').update(f.bytes).digest('hex')}`);
    for (const format of ['csv', 'tif', 'json']) {
      const ran = await buildPackage(engine, { ...methodPackage('catchment', ms), format, now: NOW });
      const given = await buildPackage(dead, { ...methodPackage('catchment', ms), result: shown, format, now: NOW });
      expect(hash(given.files)).toEqual(hash(ran.files));
    }
    const ran = await buildPackage(engine, { ...methodPackage('indapi', summary), format: 'dta', now: NOW });
    const given = await buildPackage(dead, { ...methodPackage('indapi', summary), result: table, format: 'dta', now: NOW });
    expect(hash(given.files)).toEqual(hash(ran.files));
  });

  it('the formats per method come from the method registry (the Download panel\'s list)', () => {
    expect(downloadFormats('catchment').map((f) => f.name)).toEqual(['csv', 'dta', 'rds', 'rda', 'tif', 'asc', 'grd', 'json']);
    expect(downloadFormats('similar').map((f) => f.name)).toEqual(['csv', 'dta', 'rds', 'rda', 'gpkg']);
    expect(downloadFormats('indapi').map((f) => f.name)).toContain('plot');
    expect(downloadFormats('indapi')).toBe(downloadFormats('genFile'));
    expect(downloadFormats('describe')).toEqual([]);
    // no method-name switch in the package builder: the spec names the kind
    for (const f of readdirSync(join(__dirname, '..', '..', 'src', 'core', 'package'))) {
      expect(readFileSync(join(__dirname, '..', '..', 'src', 'core', 'package', f), 'utf8')).not.toMatch(/method\s*===?\s*'/);
    }
  });
});
