import { describe, expect, test } from 'vitest';
import { loadFailureText } from './Loadable';

describe('loadFailureText', () => {
  const chromium = new TypeError('Failed to fetch dynamically imported module: https://x/assets/TablePanel-abc.js');
  const firefox = new TypeError('error loading dynamically imported module: https://x/assets/TablePanel-abc.js');
  const safari = new TypeError('Importing a module script failed.');
  test('offline comes first, whatever the error', () => {
    expect(loadFailureText(chromium, false)).toMatch(/^this device is offline/);
    expect(loadFailureText(chromium, false, true)).toBe('offline');
  });
  test("the browsers' failed-import messages are a failed download", () => {
    for (const e of [chromium, firefox, safari]) {
      expect(loadFailureText(e, true)).toMatch(/^its code could not be downloaded/);
      expect(loadFailureText(e, true, true)).toBe('the connection failed');
    }
  });
  test("any other error is shown as it is", () => {
    expect(loadFailureText(new RangeError('Invalid array length'), true)).toBe('Invalid array length');
    expect(loadFailureText('plain', true)).toBe('plain');
  });
});
