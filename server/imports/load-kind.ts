import type { ImportKind } from './kind.ts';

/** Imports a kind by its name: module path relative to server/ and export, `qrcodes/import-kind.ts#qrCodeImportKind`. */
export async function loadKind(name: string): Promise<ImportKind> {
  const [modulePath, exportName] = name.split('#');
  if (!modulePath || !exportName || modulePath.includes('..')) throw new Error(`Bad import kind name: ${name}`);
  const module = (await import(new URL(`../${modulePath}`, import.meta.url).href)) as Record<string, unknown>;
  const kind = module[exportName];
  if (!kind || typeof kind !== 'object') throw new Error(`Import kind ${name} not found`);
  return kind as ImportKind;
}
