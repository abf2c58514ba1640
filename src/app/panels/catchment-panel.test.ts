import { describe, expect, it } from 'vitest';
import { parseHash, toHash } from '../url-state';
import { parseBreaks } from './catchment';

describe('catchment panel state', () => {
  it('bands in the link (cm=) round-trip; bad ones are dropped', () => {
    const s = parseHash('#panel=catchment&pick=36.82,-1.29&cm=0,120,480');
    expect(s.panel).toBe('catchment');
    expect(s.cm).toEqual([0, 120, 480]);
    expect(toHash(s)).toContain('cm=0%2C120%2C480');
    expect(parseHash('#cm=0,60,30').cm).toBeNull();
    expect(parseHash('#cm=60').cm).toBeNull();
  });
  it('parseBreaks: increasing minutes or a message', () => {
    expect(parseBreaks('0, 60 120;240')).toEqual([0, 60, 120, 240]);
    expect(parseBreaks('0, 60, 30')).toMatch(/must increase/);
    expect(parseBreaks('60')).toMatch(/at least two/);
  });
});
