import fs from 'node:fs';

const END_OF_CHAIN = 0xfffffffe;
const ENTRY_BYTES = 128;
/** Directory sectors read at most: the names that tell an encrypted workbook sit at the top of the directory. */
const MAX_DIRECTORY_SECTORS = 16;

/**
 * Whether an OLE compound file (the container of .xls, .doc and of a password-protected .xlsx)
 * holds an `EncryptedPackage` stream: Excel saves an .xlsx with a password that way, encrypted
 * inside an OLE container. Reads the container's header, its directory's first sectors and the
 * FAT sectors that chain them; a damaged container is simply not one.
 */
export function isPasswordProtectedWorkbook(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const read = (position: number, length: number): Buffer => {
      const buffer = Buffer.alloc(length);
      return buffer.subarray(0, fs.readSync(fd, buffer, 0, length, position));
    };
    const header = read(0, 512);
    if (header.length < 512) return false;
    const shift = header.readUInt16LE(0x1e);
    if (shift !== 9 && shift !== 12) return false;
    const sectorBytes = 1 << shift;
    const sectorAt = (sector: number) => (sector + 1) * sectorBytes;
    const perFatSector = sectorBytes / 4;
    /** The FAT's entry for `sector` (the next sector of its chain), from the header's first 109 FAT sectors. */
    const next = (sector: number): number => {
      const fatIndex = Math.floor(sector / perFatSector);
      if (fatIndex >= 109) return END_OF_CHAIN;
      const fatSector = header.readUInt32LE(0x4c + fatIndex * 4);
      const entry = read(sectorAt(fatSector) + (sector % perFatSector) * 4, 4);
      return entry.length === 4 ? entry.readUInt32LE(0) : END_OF_CHAIN;
    };
    let sector = header.readUInt32LE(0x30);
    for (let n = 0; n < MAX_DIRECTORY_SECTORS && sector < 0xfffffffa; n++) {
      const directory = read(sectorAt(sector), sectorBytes);
      for (let at = 0; at + ENTRY_BYTES <= directory.length; at += ENTRY_BYTES) {
        const nameBytes = Math.min(64, directory.readUInt16LE(at + 64));
        const name = directory.toString('utf16le', at, at + Math.max(0, nameBytes - 2));
        if (name === 'EncryptedPackage') return true;
      }
      sector = next(sector);
    }
    return false;
  } finally {
    fs.closeSync(fd);
  }
}
