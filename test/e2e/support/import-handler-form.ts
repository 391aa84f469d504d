import type { Locator, Page } from 'playwright-core';

/** Opens the "New import handler" form and fills its name, slug and first column title; the form. */
export async function startImportHandlerForm(page: Page, name: string, slug: string, firstTitle: string): Promise<Locator> {
  await page.getByRole('button', { name: 'New import handler' }).click();
  const form = page.getByRole('form', { name: 'New import handler' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Slug (org_identifier)').fill(slug);
  await form.getByLabel('Column title in your file, row 1').fill(firstTitle);
  return form;
}
