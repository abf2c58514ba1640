import { expect, test } from 'vitest';
import { filterOptions, fold, matchOptions } from './ChipSelect';

test('options match every typed word in label, code or group, blind to case and accents', () => {
  const opts = [
    { value: 'CIV', label: "Côte d'Ivoire (CIV)", group: 'Countries' },
    { value: 'KEN', label: 'Kenya (KEN)', group: 'Countries' },
    { value: 'EAF', label: 'Eastern Africa (EAF)', group: 'Regions' },
  ];
  expect(fold('Côte')).toBe('cote');
  expect(filterOptions(opts, 'cote').map((o) => o.value)).toEqual(['CIV']);
  expect(filterOptions(opts, 'ken').map((o) => o.value)).toEqual(['KEN']);
  expect(filterOptions(opts, 'regions africa').map((o) => o.value)).toEqual(['EAF']);
  expect(filterOptions(opts, '').length).toBe(3);
});

test('a ranked search decides the options and their order when given', () => {
  const opts = [{ value: 'A', label: 'Alpha' }, { value: 'B', label: 'Beta' }, { value: 'C', label: 'Gamma' }];
  expect(matchOptions(opts, 'x', () => ['C', 'Z', 'A']).map((o) => o.value)).toEqual(['C', 'A']);
  expect(matchOptions(opts, '', () => ['C']).map((o) => o.value)).toEqual(['A', 'B', 'C']);
  expect(matchOptions(opts, 'bet').map((o) => o.value)).toEqual(['B']);
});
