import * as XLSX from '@e965/xlsx';
import fs from 'node:fs';
const cfb = (f: string) => XLSX.CFB.read(fs.readFileSync(f), { type: 'buffer' });
const a = cfb('test/fixtures/workbench/qr-second-sheet.xls'), b = cfb('/tmp/one.xls');
for (const [i, e] of a.FileIndex.entries()) { const x = Buffer.from(e.content ?? []), y = Buffer.from(b.FileIndex[i].content ?? []); if (!x.equals(y)) { for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) { console.log(JSON.stringify(e.name), 'diff at', k, x[k], y[k]); break; } } }
