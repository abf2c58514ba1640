/**
 * POP_MODEL (issue 24: a modelled total population, scripts/data/pop_model.py) against facts no
 * code here computed: census and UN figures for five cities, through the engine's `catchment`
 * over the embedded bundle (walking friction, FRICTION_WALK), and the national totals it was
 * built from. A model on 9 km cells from older GeoNames town figures: "within a factor of 2".
 *
 * Times are counted from the city's point (`origin = "point"`, as the app's Catchment panel
 * counts them), not 0 for the whole 9 km source cell. Only the cells of the city's own country
 * are counted (`iso3`), as the published figures are: the cell of the GeoNames Kinshasa point is
 * a Republic of the Congo cell holding Brazzaville (1.28 M in POP_MODEL), across the river.
 *
 * Areas compared: 2 h of walking reaches 3 or 4 cells (250 to 340 km2) around a city point, 4 h
 * 9 to 15 cells; the published figures cover 530 km2 (Addis Ababa) to 3,577 km2 (Lagos State).
 * Nairobi, Addis Ababa, Dar es Salaam and Kinshasa are compared within 2 h; every city within 4 h.
 * Measured (`npx tsx scripts/data/city-catchments.ts`: runCatchment with var POP_MODEL, origin
 * "point", 0/120/240 minutes, iso3 the city's country; bundle of 2026-11-29, POP_MODEL split by
 * first-level census shares where a census was found (KEN, ETH, TZA, NGA; not COD), towns as
 * before, the rest by land weighted by GeoNames towns within 25 km; FRICTION_WALK with any-land
 * cells passable, Kinshasa's disc at its measured density, scripts/data/urban_density.csv):
 *   city            2 h              4 h
 *   Nairobi         3.42 M  0.78x    4.89 M  1.11x
 *   Addis Ababa     3.44 M  1.26x    4.46 M  1.63x
 *   Dar es Salaam   3.36 M  0.77x    4.44 M  1.02x
 *   Lagos           3.97 M  0.44x    9.76 M  1.07x
 *   Kinshasa        8.48 M  0.73x    9.02 M  0.78x
 * Before the census shares (bundle of 2026-11-27, rest by land near towns over each whole country)
 * Nairobi was 0.64x and Dar es Salaam 0.62x at 2 h: their units now hold their census share of the
 * 2017 national total. Addis Ababa is above its 2007 census figure because its unit (7 cells) holds
 * its 2007 share of Ethiopia's 2017 total (3.9 M), the city having grown since.
 * Kinshasa was 4.74 M, 0.41x, at 2 h when its disc had the default 10,000 people per km2 (radius
 * 15.8 km); the Atlas of Urban Expansion (2016 edition) gives its Urban Extent Density as 224
 * persons per hectare in 2013 (http://atlasofurbanexpansion.org/cities/view/Kinshasa), a disc of
 * 10.5 km: the 2 h walk (3 DRC cells, bounded by the Congo river and Pool Malebo) now holds
 * nearly all of GeoNames' 7.8 M for Kinshasa. Counting Brazzaville's cell it would be 9.58 M.
 * Why Lagos misses at 2 h: the walk reaches 4 cells (340 km2): Lagos Island's, the mainland north
 * of it, and Ikoyi / Victoria Island east of it (43 % land; Lagos was 0.31x at 2 h, 2 cells, when
 * cells under 50 % land were barriers). The model spreads GeoNames' 9.0 M for Lagos over a disc
 * of 9.0 M / 10,000 people per km2 (radius 16.9 km, URBAN_DENSITY): no Atlas page for Lagos was
 * found among the stored pages, so it keeps the default. GeoNames itself places the seats of
 * Lagos' local government areas (Agege, Ikorodu, Ikotun, Oshodi, Mushin...) 4 to 22 km from the
 * point, so the city does reach beyond the 10 km or so of 2 h on foot, and Lagos State is ten
 * times the area of 4 cells.
 * Dar es Salaam reached 0.45x at 2 h when times were counted from the whole source cell (3 cells);
 * from the point, 4 cells and 0.62x.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCatchment } from '../../src/core/catchment/query';
import { createNodeEngine } from '../../src/node/engine';

const engine = createNodeEngine(join(__dirname, '..', '..', 'public', 'data'));

/** Modelled people of country `iso3` within `minutes` of walking from a point (counted from the point). */
async function within(xy: [number, number], minutes: number, iso3: string): Promise<number> {
  const r = await runCatchment(engine, { xy: [xy], minutes: [0, minutes], var: ['POP_MODEL'], origin: 'point', iso3: [iso3] });
  return r.table.rows[0].POP_MODEL as number;
}

/** Ratio model / published inside [1/2, 2]. */
function withinFactor2(model: number, published: number): { ratio: number; ok: boolean } {
  const ratio = Math.round((model / published) * 100) / 100;
  return { ratio, ok: ratio >= 0.5 && ratio <= 2 };
}

describe('POP_MODEL against published figures', () => {
  it.each([
    // Kenya National Bureau of Statistics (2019), Kenya Population and Housing Census, Volume I:
    // Nairobi City County 4,397,073. Point: GeoNames Nairobi (36.8167, -1.2833).
    ['Nairobi', [36.8167, -1.2833], 4_397_073, 'KEN'],
    // Central Statistical Agency of Ethiopia, 2007 census: Addis Ababa city administration 2,739,551. Point: GeoNames (38.7469, 9.0250).
    ['Addis Ababa', [38.7469, 9.025], 2_739_551, 'ETH'],
    // Tanzania National Bureau of Statistics, 2012 census: Dar es Salaam Region 4,364,541. Point: GeoNames (39.2695, -6.8235).
    ['Dar es Salaam', [39.2695, -6.8235], 4_364_541, 'TZA'],
    // UN DESA, World Urbanization Prospects 2018: urban agglomeration of Kinshasa, 2015, 11,587,000. Point: GeoNames Kinshasa (15.3136, -4.3276).
    ['Kinshasa', [15.3136, -4.3276], 11_587_000, 'COD'],
  ] as Array<[string, [number, number], number, string]>)('within 2 h of %s: within a factor of 2 of the published figure', async (name, xy, published, iso3) => {
    const m = await within(xy, 120, iso3);
    expect({ name, m, ...withinFactor2(m, published) }).toMatchObject({ name, ok: true });
  });

  it.each([
    // National Population Commission of Nigeria, 2006 census: Lagos State 9,113,605. Point: GeoNames Lagos (3.3947, 6.4541).
    ['Lagos', [3.3947, 6.4541], 9_113_605, 'NGA'],
    // UN DESA, World Urbanization Prospects 2018: urban agglomeration of Kinshasa, 2015, 11,587,000. Point: GeoNames Kinshasa (15.3136, -4.3276).
    ['Kinshasa', [15.3136, -4.3276], 11_587_000, 'COD'],
    // Central Statistical Agency of Ethiopia, 2007 census: Addis Ababa city administration 2,739,551. Point: GeoNames (38.7469, 9.0250).
    ['Addis Ababa', [38.7469, 9.025], 2_739_551, 'ETH'],
    // Tanzania National Bureau of Statistics, 2012 census: Dar es Salaam Region 4,364,541. Point: GeoNames (39.2695, -6.8235).
    ['Dar es Salaam', [39.2695, -6.8235], 4_364_541, 'TZA'],
    // The same Nairobi figure as above, within 4 h.
    ['Nairobi', [36.8167, -1.2833], 4_397_073, 'KEN'],
  ] as Array<[string, [number, number], number, string]>)('within 4 h of %s: within a factor of 2 of the published figure', async (name, xy, published, iso3) => {
    const m = await within(xy, 240, iso3);
    expect({ name, m, ...withinFactor2(m, published) }).toMatchObject({ name, ok: true });
  });

  it("each country's cells add up to the national total used (PWT 9.1, 2017; see the record)", async () => {
    // Penn World Table 9.1 (Feenstra, Inklaar and Timmer 2015; pwt9 in Debian r-cran-pwt9), pop 2017 in
    // millions: KEN 49.69986, NGA 190.88631, COD 81.33999, ETH 104.95744, TZA 55.79779 (x 1e6, rounded).
    // SOM, SSD: World Bank 2014 via spData (as PN14_POP); ERI: Gapminder 2015 via dslabs.
    const want: Record<string, number> = {
      KEN: 49_699_863, NGA: 190_886_307, COD: 81_339_989, ETH: 104_957_436, TZA: 55_797_787,
      SOM: 13_513_125, SSD: 11_530_971, ERI: 5_227_791,
    };
    for (const [iso3, n] of Object.entries(want)) {
      const t = await engine.getLayerTable({ var: ['POP_MODEL'], iso3: [iso3] });
      expect({ iso3, n: t.rows[0].POP_MODEL }).toEqual({ iso3, n });
    }
  });

  it('the record says "modelled"; PN14_POP says it is spread evenly; PLACES_POP is people in towns of 1,000+', async () => {
    const cat = await engine.loadCatalog();
    const by = (c: string) => cat.records.find((r) => r.varCode === c)!;
    expect(by('POP_MODEL').varLabel).toMatch(/modelled/);
    expect(by('POP_MODEL').varDesc).toMatch(/^MODELLED, not a census/);
    expect(by('PN14_POP').varLabel).toMatch(/spread evenly.*not where people live/);
    expect(by('PLACES_POP').varLabel).toBe('People in towns of 1,000+ (GeoNames)');
  });
});
