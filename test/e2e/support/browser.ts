import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; QR_SANDBOX_CHROMIUM points elsewhere. */
export const CHROMIUM_PATH = process.env.QR_SANDBOX_CHROMIUM ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when they can. */
export function browserUnavailable(): string | null {
  if (!fs.existsSync(CHROMIUM_PATH))
    return `${CHROMIUM_PATH} is missing (Debian package chromium; .ci/run installs it), so the browser tests are skipped.`;
  return null;
}

/**
 * Debian's Chromium, headless, with nothing that reaches out to the network. Playwright gives
 * every launch a fresh temporary profile (user data dir) and removes it on close.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface GuiPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and Content-Security-Policy violations seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh context (own localStorage) and page, recording anything the page complains about. */
export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<GuiPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  return { context, page, problems, close: () => context.close() };
}

/** Puts a CSV file (name and text) into the page's first file input, as choosing it in the file dialog does. */
export const chooseCsvFile = (page: Page, name: string, content: string) =>
  page
    .locator('input[type=file]')
    .first()
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });

/** A QR code CSV of two rows: `name` at `location`, and `lostName` at an address no geocoder finds. */
export const locatedAndLostCsv = (location: string, name: string, lostName: string) =>
  `location,name\r\n"${location}",${name}\r\n"1 Nowhere Road, Atlantis ZZ 00000",${lostName}\r\n`;

/** chooseCsvFile, then waits for the preview's first rows. */
export async function previewCsvFile(page: Page, name: string, content: string): Promise<void> {
  await chooseCsvFile(page, name, content);
  await page.getByRole('table', { name: 'First rows of the file' }).waitFor();
}

/** Clicks the button named `button`, which opens the file dialog, and chooses a CSV file (name and text) in it. */
export async function chooseCsvFileThrough(page: Page, button: string, name: string, content: string): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: button }).click()]);
  await chooser.setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}
