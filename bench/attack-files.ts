import fs from 'node:fs';
import zlib from 'node:zlib';

/** One entry of a streamed zip: its pieces are deflated as they are made, never held whole. */
export interface StreamedEntry {
  name: string;
  pieces: () => Iterable<Buffer>;
}

/** Each piece deflated once: a piece yielded again (the same Buffer) reuses its blocks. */
const deflated = new WeakMap<Buffer, Buffer>();

/** Deflates each piece on its own, ending it with a sync flush: the blocks concatenate into one valid stream. */
function deflatePieces(pieces: Iterable<Buffer>, write: (b: Buffer) => void): { crc: number; size: number; packed: number } {
  let crc = 0;
  let size = 0;
  let packed = 0;
  const take = (b: Buffer) => {
    packed += b.length;
    write(b);
  };
  for (const piece of pieces) {
    crc = zlib.crc32(piece, crc);
    size += piece.length;
    let blocks = deflated.get(piece);
    if (blocks === undefined) {
      blocks = zlib.deflateRawSync(piece, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
      deflated.set(piece, blocks);
    }
    take(blocks);
  }
  take(zlib.deflateRawSync(Buffer.alloc(0)));
  return { crc, size, packed };
}

/**
 * Writes a zip whose entries may unpack to gigabytes while the file stays small: each piece is
 * deflated on its own (a sync flush between pieces keeps the stream valid), sizes go in a data
 * descriptor and the central directory.
 */
export function writeStreamedZip(file: string, entries: StreamedEntry[]): number {
  const fd = fs.openSync(file, 'w');
  let offset = 0;
  const write = (b: Buffer) => {
    fs.writeSync(fd, b);
    offset += b.length;
  };
  const central: Buffer[] = [];
  try {
    for (const entry of entries) {
      const name = Buffer.from(entry.name);
      const start = offset;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0008, 6);
      local.writeUInt16LE(8, 8);
      local.writeUInt16LE(name.length, 26);
      write(local);
      write(name);
      const { crc, size, packed } = deflatePieces(entry.pieces(), write);
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(packed, 8);
      descriptor.writeUInt32LE(size >>> 0, 12);
      write(descriptor);
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0008, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt32LE(crc, 16);
      record.writeUInt32LE(packed, 20);
      record.writeUInt32LE(size >>> 0, 24);
      record.writeUInt16LE(name.length, 28);
      record.writeUInt32LE(start, 42);
      central.push(record, name);
    }
    const directory = Buffer.concat(central);
    const directoryOffset = offset;
    write(directory);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(directoryOffset, 16);
    write(end);
  } finally {
    fs.closeSync(fd);
  }
  return offset;
}

export const text = (s: string) => () => [Buffer.from(s)];

/** `bytes` of one repeated character, in 16 MB pieces. */
export function* repeated(char: string, bytes: number): Iterable<Buffer> {
  const piece = Buffer.alloc(16 * 1024 * 1024, char);
  for (let left = bytes; left > 0; left -= piece.length) yield left >= piece.length ? piece : piece.subarray(0, left);
}

export const WORKBOOK_PARTS = (sharedStrings: boolean): StreamedEntry[] => [
  {
    name: '[Content_Types].xml',
    pieces: text(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${sharedStrings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
    ),
  },
  {
    name: '_rels/.rels',
    pieces: text(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
  },
  {
    name: 'xl/workbook.xml',
    pieces: text(
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
  },
  {
    name: 'xl/_rels/workbook.xml.rels',
    pieces: text(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>${sharedStrings ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' : ''}</Relationships>`,
    ),
  },
];

export const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>location</t></is></c></row>';

/** The first workbook bomb: a small .xlsx whose sheet holds one cell of `cellBytes` (1 GB). */
export function writeHugeCellXlsx(file: string, cellBytes: number): number {
  return writeStreamedZip(file, [
    ...WORKBOOK_PARTS(false),
    {
      name: 'xl/worksheets/sheet1.xml',
      pieces: function* () {
        yield Buffer.from(`${SHEET_HEAD}<row r="2"><c r="A2" t="inlineStr"><is><t>`);
        yield* repeated('x', cellBytes);
        yield Buffer.from(
          '</t></is></c><c r="B2" t="inlineStr"><is><t>1 High Street, Carlton VIC 3053</t></is></c></row></sheetData></worksheet>',
        );
      },
    },
  ]);
}

/** The second: a shared string of `stringBytes` (2 GB) that the sheet's first data cell uses. */
export function writeHugeSharedStringXlsx(file: string, stringBytes: number): number {
  return writeStreamedZip(file, [
    ...WORKBOOK_PARTS(true),
    {
      name: 'xl/sharedStrings.xml',
      pieces: function* () {
        yield Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>',
        );
        yield* repeated('y', stringBytes);
        yield Buffer.from('</t></si></sst>');
      },
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      pieces: text(`${SHEET_HEAD}<row r="2"><c r="A2" t="s"><v>0</v></c></row></sheetData></worksheet>`),
    },
  ]);
}

/** The poison CSV: a header, then one quoted cell of `cellBytes` (200 MB). */
export function writePoisonCsv(file: string, cellBytes: number): number {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, 'name,location\r\n"');
    for (const piece of repeated('x', cellBytes)) fs.writeSync(fd, piece);
    fs.writeSync(fd, '","1 High Street, Carlton VIC 3053"\r\n');
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}

/** The JSON array of `count` numbers (10 million: 20 MB). */
export function writeNumberArray(file: string, count: number): number {
  fs.writeFileSync(file, Buffer.concat([Buffer.from('['), Buffer.alloc(2 * count - 1, '1,'), Buffer.from(']')]));
  return fs.statSync(file).size;
}
