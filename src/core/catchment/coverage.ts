/**
 * Coverage with capacity, as AccessMod's geographic coverage analysis defines it: each
 * source takes the cells of its marketshed (the cells nearest to it by travel time) in
 * travel-time order, adding their people, until its capacity or the last break is reached;
 * the cell that would pass the capacity is covered in part (the people still needed).
 * Reported: per source the people covered, the cells taken and the time of the last one, the
 * people in reach (its marketshed within the last break); overall the people in reach,
 * covered and left uncovered.
 */
import type { CatchmentCoverage, SourceCoverage } from '../api/catchment';

/**
 * Coverage of sources with capacities over a window.
 * @param minutes travel time per window cell (minutes)
 * @param band band per window cell (-1: beyond the last break or outside `iso3`: not counted)
 * @param source nearest source per window cell
 * @param people people per window cell (NaN or negative: none)
 * @param capacity people per source
 */
export function coverageOf(minutes: Float32Array, band: Int8Array, source: Int16Array, people: Float32Array | Float64Array, capacity: number[]): Omit<CatchmentCoverage, 'population'> {
  const S = capacity.length;
  // cells of each source (counting sort), then each source's cells by time
  const n = new Int32Array(S + 1);
  for (let i = 0; i < band.length; i++) if (band[i] >= 0 && source[i] >= 0) n[source[i] + 1]++;
  for (let s = 0; s < S; s++) n[s + 1] += n[s];
  const order = new Int32Array(n[S]);
  const at = n.slice(0, S);
  for (let i = 0; i < band.length; i++) if (band[i] >= 0 && source[i] >= 0) order[at[source[i]]++] = i;
  const coveredCells = new Uint8Array(band.length);
  const pop = (i: number) => (people[i] > 0 ? people[i] : 0);
  const sources: SourceCoverage[] = [];
  let inReach = 0, covered = 0;
  for (let s = 0; s < S; s++) {
    const cells = Array.from(order.subarray(n[s], n[s + 1])).sort((x, y) => minutes[x] - minutes[y]);
    let reach = 0;
    for (const i of cells) reach += pop(i);
    let got = 0, taken = 0, last = NaN;
    for (const i of cells) {
      if (got >= capacity[s]) break;
      got += Math.min(pop(i), capacity[s] - got);
      coveredCells[i] = 1;
      taken++;
      last = minutes[i];
    }
    sources.push({ source: s, capacity: capacity[s], covered: got, cells: taken, minutes: last, inReach: reach });
    inReach += reach;
    covered += got;
  }
  return { sources, inReach, covered, uncovered: inReach - covered, coveredCells };
}
