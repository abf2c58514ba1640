// wrapTitle: long vertical axis titles become lines at spaces; short ones stay one string.
import { describe, expect, it } from 'vitest';
import { wrapTitle } from './BarChart';

describe('wrapTitle', () => {
  it('keeps a title that fits as one string', () => {
    expect(wrapTitle('Elevation (ETOPO5) (m)', 28)).toBe('Elevation (ETOPO5) (m)');
  });
  it('breaks at spaces into lines of at most maxChars, the unit whole', () => {
    const lines = wrapTitle('Population of places of 1000+ people (GeoNames) (people)', 28) as string[];
    expect(lines).toEqual(['Population of places of', '1000+ people (GeoNames)', '(people)']);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(28);
  });
  it('a word longer than a line keeps its own line', () => {
    expect(wrapTitle('a Supercalifragilisticexpialidocious b', 10)).toEqual(['a', 'Supercalifragilisticexpialidocious', 'b']);
  });
});
