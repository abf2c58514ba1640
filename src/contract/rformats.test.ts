import { gunzipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { FormatError, toMarkdown, toRds, toTab } from './rformats';
import { toCsv } from './rprint';

const rows = [
  { ISO3: 'KEN', ADM1_NAME_ALT: 'Rift "Valley"', ELEVATION: 1500, AREA: 1.5 },
  { ISO3: 'KEN', ELEVATION: 20 },
];

describe('R/.val formats', () => {
  test('csv, tab, md: formula text neutralised, HTML shown as text, numbers untouched (issue 25 item 7)', () => {
    const v = [{ label: '=cmd|\' /C calc\'!A0', html: '<img src=x onerror=alert(1)>', n: -1.5 }];
    expect(toCsv(v)).toBe('"label","html","n"\r\n"\'=cmd|\' /C calc\'!A0","<img src=x onerror=alert(1)>",-1.5\r\n');
    expect(toTab(v)).toContain('"\'=cmd|');
    expect(toMarkdown(v)).toContain('| =cmd\\|\' /C calc\'!A0 | &lt;img src=x onerror=alert(1)&gt; | -1.5 |');
  });
  test('tab: quoted names and text, tabs, CRLF, empty missing fields', () => {
    expect(toTab(rows)).toBe('"ISO3"\t"ADM1_NAME_ALT"\t"ELEVATION"\t"AREA"\r\n"KEN"\t"Rift ""Valley"""\t1500\t1.5\r\n"KEN"\t\t20\t\r\n');
    expect(toTab(['a.csv', 'b.csv'])).toBe('"x"\r\n"a.csv"\r\n"b.csv"\r\n');
  });
  test('md: a pipe table, numbers right-aligned, NA for missing, pipes escaped', () => {
    expect(toMarkdown([{ a: 'x|y', n: 1 }, { n: 2.5 }])).toBe('| a | n |\n|:---|---:|\n| x\\|y | 1 |\n| NA | 2.5 |\n');
  });
  test('rds: a gzip-compressed version-3 serialization of a data.frame', () => {
    const raw = gunzipSync(toRds(rows));
    expect(new TextDecoder().decode(raw.slice(0, 2))).toBe('X\n');
    const text = new TextDecoder('latin1').decode(raw);
    for (const s of ['data.frame', 'row.names', 'ELEVATION', 'Rift "Valley"']) expect(text).toContain(s);
    expect(text).not.toContain('time.stamp');
  });
  test('rds of a named list of tables and of vectors; NULL and logical values are refused', () => {
    expect(new TextDecoder('latin1').decode(gunzipSync(toRds({ meta: [{ a: 'x' }], data: rows })))).toContain('meta');
    expect(gunzipSync(toRds(['a.csv'])).length).toBeGreaterThan(10);
    expect(() => toRds(null)).toThrow(FormatError);
    expect(() => toRds([true, false])).toThrow(/cannot be written as R data/);
    expect(() => toTab({ a: { b: 1 } })).toThrow(FormatError);
  });
});
