type SheetJs = typeof import('@e965/xlsx');

let loaded: Promise<SheetJs> | undefined;

/** SheetJS (the npm package @e965/xlsx), loaded on the first .xls or .ods read: a process that reads none does not pay for it. */
export function loadSheetJs(): Promise<SheetJs> {
  loaded ??= import('@e965/xlsx');
  return loaded;
}
