import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startServer, type Started } from './helpers';

let srv: Started;
let browser: Browser;
beforeAll(async () => {
  srv = await startServer();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
});
afterAll(async () => { await browser?.close(); await srv?.stop(); });

test('the app shell loads from the start command', async () => {
  const page = await browser.newPage();
  await page.goto(srv.url);
  await expect(page.locator('h1').first().textContent()).resolves.toContain('indapi3');
});
