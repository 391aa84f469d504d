/** The bytes the XML scanners of workbooks (xlsx/, sheetjs/, the zip and row-count checks) look for. */
export const LT = 0x3c;
export const GT = 0x3e;
export const SLASH = 0x2f;
export const COLON = 0x3a;
export const BANG = 0x21;
export const EQUALS = 0x3d;
export const QUOTE = 0x22;
export const APOSTROPHE = 0x27;
export const AMP = 0x26;
export const HASH = 0x23;
export const UNDERSCORE = 0x5f;
