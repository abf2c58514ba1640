import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { RunControls, type RunControlsProps } from './RunControls';

const html = (p: Partial<RunControlsProps> & { running?: boolean }) => renderToStaticMarkup(createElement(RunControls, {
  run: { running: p.running ?? false, progress: [1, 4], cancel: () => undefined }, label: 'Summarise', progressLabel: 'Summarising', onRun: () => undefined, ...p,
}));

describe('RunControls', () => {
  test('idle: the button only, not disabled', () => {
    const h = html({});
    expect(h).toBe('<div class="row"><button type="button" class="primary" aria-disabled="false">Summarise</button></div>');
  });
  test('running: progress with its percentage and Cancel; the error waits for the run to end', () => {
    const h = html({ running: true, error: 'boom', buttonData: { 'data-runs': 3 } });
    expect(h).toContain('aria-disabled="true" data-runs="3">Summarise</button>');
    expect(h).toContain('role="status"');
    expect(h).toContain('Summarising 25%');
    expect(h).toContain('>Cancel</button>');
    expect(h).not.toContain('boom');
  });
  test('the message and the error are alerts with their test ids', () => {
    const h = html({ message: 'Choose at least one indicator.', messageTestId: 'm', error: 'Unknown code X', errorTestId: 'e' });
    expect(h).toContain('<p class="msg error" role="alert" data-testid="m">Choose at least one indicator.</p>');
    expect(h).toContain('<p class="msg error" role="alert" data-testid="e">Unknown code X</p>');
  });
});
