import fs from 'node:fs';

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes a CSV of `rows` generated rows in 1 MB pieces (never the whole file in memory); returns its size in bytes. */
export function writeBenchCsv(file: string, columns: readonly string[], rowAt: (i: number) => string[], rows: number): number {
  const fd = fs.openSync(file, 'w');
  try {
    let buffer = `${columns.join(',')}\r\n`;
    for (let i = 0; i < rows; i++) {
      buffer += `${rowAt(i).map(csvCell).join(',')}\r\n`;
      if (buffer.length > 1 << 20) {
        fs.writeSync(fd, buffer);
        buffer = '';
      }
    }
    fs.writeSync(fd, buffer);
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}
