import { describe, expect, it } from 'vitest';
import { SSA_GRID, type GridDef } from '../grid';
import { assignBands, bandLabels, bandOf, checkBreaks } from './bands';
import { gridSteps, travelTimeMinutes } from './cost';
import { geodesicDistanceM } from './geodesic';
import { CellHeap, IndexedCellHeap } from './heap';

describe('geodesicDistanceM', () => {
  it('matches pyproj Geod(ellps="WGS84").inv to 1e-9 relative', () => {
    // [lat, east-west, north-south (to lat - 1/12), diagonal] from pyproj 3.4.1
    const ref = [
      [0.041666666666666664, 9276.621796223675, 9214.523001444044, 13075.28876283717],
      [-1.2916666666666667, 9274.282802154492, 9214.57310056505, 13073.554101282578],
      [-34.958333333333336, 7611.201496684773, 9245.047881183444, 11972.577720684707],
      [27.958333333333332, 8199.972906002495, 9234.842361631321, 12352.062903451579],
    ];
    for (const [lat, ew, ns, dg] of ref) {
      expect(geodesicDistanceM(0, lat, 1 / 12, lat) / ew - 1).toBeCloseTo(0, 9);
      expect(geodesicDistanceM(0, lat, 0, lat - 1 / 12) / ns - 1).toBeCloseTo(0, 9);
      expect(geodesicDistanceM(0, lat, 1 / 12, lat - 1 / 12) / dg - 1).toBeCloseTo(0, 9);
    }
    expect(geodesicDistanceM(10, 5, 10, 5)).toBe(0);
  });
});

describe('CellHeap', () => {
  it('pops in key order and grows', () => {
    const h = new CellHeap(16);
    const keys = Array.from({ length: 500 }, (_, i) => ((i * 7919) % 503) / 3);
    keys.forEach((k, i) => h.push(k, i));
    const out: number[] = [];
    while (h.size) out.push(keys[h.pop()]);
    expect(out).toEqual([...keys].sort((a, b) => a - b));
    expect(h.pop()).toBe(-1);
  });
});

describe('IndexedCellHeap', () => {
  it('holds each cell once, lowers keys in place, pops in key order and leaves pos all -1', () => {
    const pos = new Int32Array(600).fill(-1);
    const h = new IndexedCellHeap(pos, 16);
    const keys = Array.from({ length: 500 }, (_, i) => 1000 + ((i * 7919) % 503) / 3);
    keys.forEach((k, i) => h.set(i, k));
    // lower every third cell (decrease-key): no second entry
    for (let i = 0; i < 500; i += 3) { keys[i] -= 900; h.set(i, keys[i]); }
    expect(h.size).toBe(500);
    const out: number[] = [];
    while (h.size > 100) out.push(keys[h.pop()]);
    expect(out).toEqual([...keys].sort((a, b) => a - b).slice(0, 400));
    const left: number[] = [];
    h.clear((c) => left.push(c));
    expect(left.length).toBe(100);
    expect(h.size).toBe(0);
    expect([...pos].every((p) => p === -1)).toBe(true);
  });
});

/** A made-up 5 x 4 window of the CELL5M lattice near the equator (fixture). */
const G: GridDef = { ...SSA_GRID, xmin: 36, xmax: 36 + 5 / 12, ymax: 1 / 3, ymin: 0, width: 5, height: 4, colOffset: 2592, rowOffset: 1076 };

describe('travelTimeMinutes', () => {
  const uniform = (v: number) => new Float32Array(G.width * G.height).fill(v);
  const steps = gridSteps(G);
  it('steps: geodesic lengths times mean friction, the cheapest path wins', () => {
    const f = uniform(0.01);
    const t = travelTimeMinutes({ grid: G, minutesPerMetre: f }, [[36 + 0.5 / 12, 1 / 3 - 0.5 / 12]], { maxMinutes: Infinity });
    expect(t.minutes[0]).toBe(0);
    expect(t.minutes[1]).toBeCloseTo(steps.ewM[0] * 0.01, 3);
    expect(t.minutes[G.width]).toBeCloseTo(steps.nsM[0] * 0.01, 3);
    expect(t.minutes[G.width + 1]).toBeCloseTo(steps.diagM[0] * 0.01, 3);
    // (2, 2): two diagonal steps
    expect(t.minutes[2 * G.width + 2]).toBeCloseTo((steps.diagM[0] + steps.diagM[1]) * 0.01, 3);
    expect(t.settled).toBe(G.width * G.height);
    expect(t.window).toEqual([0, 0, 5, 4]);
  });
  it('mean friction of the two cells; barriers are not crossed; nearest source wins', () => {
    const f = uniform(0.01);
    f[1] = 0.03; // step 0 -> 1 costs ew * 0.02
    for (let r = 0; r < G.height; r++) f[r * G.width + 2] = NaN; // a wall in column 2
    const src = (c: number, r: number): [number, number] => [36 + (c + 0.5) / 12, 1 / 3 - (r + 0.5) / 12];
    const t = travelTimeMinutes({ grid: G, minutesPerMetre: f }, [src(0, 0)], { maxMinutes: Infinity });
    expect(t.minutes[1]).toBeCloseTo(steps.ewM[0] * 0.02, 3);
    expect(Number.isNaN(t.minutes[2])).toBe(true);
    expect(Number.isNaN(t.minutes[3])).toBe(true);
    const two = travelTimeMinutes({ grid: G, minutesPerMetre: f }, [src(0, 0), src(4, 3)], { maxMinutes: Infinity });
    expect(two.minutes[3 * G.width + 4]).toBe(0);
    // (4, 0) from the source at (4, 3): three steps north; (3, 0): two north and one diagonal
    expect(two.minutes[4] / ((steps.nsM[0] + steps.nsM[1] + steps.nsM[2]) * 0.01) - 1).toBeCloseTo(0, 6);
    const { nsM: n, diagM: g } = steps;
    const best = Math.min(n[0] + n[1] + g[2], n[0] + g[1] + n[2], g[0] + n[1] + n[2]);
    expect(two.minutes[3] / (best * 0.01) - 1).toBeCloseTo(0, 6);
    expect(two.sourceCells).toEqual([0, 3 * G.width + 4]);
  });
  it('stops past maxMinutes (NaN beyond)', () => {
    const t = travelTimeMinutes({ grid: G, minutesPerMetre: uniform(0.01) }, [[36.01, 0.3]], { maxMinutes: 100 });
    // ew step ~92.8 min, diagonal ~130 min
    expect(t.minutes[1]).toBeCloseTo(steps.ewM[0] * 0.01, 3);
    expect(Number.isNaN(t.minutes[G.width + 1])).toBe(true);
    expect(t.settled).toBe(3);
  });
  it('bad sources: outside, on a barrier, too many, aborted', () => {
    const f = uniform(0.01);
    f[0] = NaN;
    const s = { grid: G, minutesPerMetre: f };
    expect(() => travelTimeMinutes(s, [[10, 0.2]], { maxMinutes: 60 })).toThrow(/'xy'.*outside the grid/);
    expect(() => travelTimeMinutes(s, [[36.01, 0.3]], { maxMinutes: 60, argName: 'wkt' })).toThrow(/'wkt'.*cannot cross/);
    expect(() => travelTimeMinutes(s, Array(1001).fill([36.2, 0.1]), { maxMinutes: 60 })).toThrow(/at most 1000/);
    const ac = new AbortController();
    ac.abort();
    expect(() => travelTimeMinutes(s, [[36.2, 0.1]], { maxMinutes: 60, signal: ac.signal })).toThrow(/aborted/);
  });
});

describe('bands', () => {
  it('labels as R cut(include.lowest = TRUE, dig.lab = 3)', () => {
    expect(bandLabels([0, 60, 120, 240, 480])).toEqual(['[0,60]', '(60,120]', '(120,240]', '(240,480]']);
    expect(bandLabels([0, 500, 1000])).toEqual(['[0,500]', '(500,1e+03]']);
  });
  it('assigns cells by their own time; 0 in the first band', () => {
    const b = [0, 60, 120];
    expect([0, 60, 60.5, 120, 121, NaN, -1].map((v) => bandOf(b, v))).toEqual([0, 0, 1, 1, -1, -1, -1]);
    expect([...assignBands(new Float32Array([0, 30, 90, NaN]), b)]).toEqual([0, 0, 1, -1]);
    expect(bandOf([30, 60, 120], 10)).toBe(-1);
  });
  it('checks breaks', () => {
    expect(() => checkBreaks([0, 60, 60])).toThrow(/'minutes' must be strictly increasing/);
    expect(() => checkBreaks([60])).toThrow(/at least two/);
    expect(() => checkBreaks([-5, 60])).toThrow(/>= 0/);
    expect(checkBreaks([0, 30])).toEqual([0, 30]);
  });
});
