import './file-picker.css';
import type { UploadFile } from '../api/request.ts';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { desktopBridge } from '../desktop/bridge.ts';
import { formatBytes, fromPickedFile } from '../api/import-api.ts';

const ACCEPT = [
  '.csv',
  '.xlsx',
  '.xls',
  '.ods',
  '.json',
  'text/csv',
  'application/json',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/vnd.oasis.opendocument.spreadsheet',
].join(',');

/** A button that picks an import file: the desktop app's open dialog, or the browser's file input. */
export function PickFileButton({
  label,
  onFile,
  className = 'button',
  disabled = false,
}: {
  label: string;
  onFile(file: UploadFile): void;
  className?: string;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const pick = async () => {
    const bridge = desktopBridge();
    if (!bridge) {
      input.current?.click();
      return;
    }
    const picked = await bridge.openImportFile();
    if (picked) onFile(fromPickedFile(picked));
  };
  return (
    <>
      <button type="button" className={className} onClick={() => void pick()} disabled={disabled}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        aria-label={label}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) onFile({ name: file.name, blob: file });
          e.currentTarget.value = '';
        }}
      />
    </>
  );
}

/** Drop a file here or choose one; files from the desktop app's File menu or window drops arrive too. */
export function FileDropZone({ file, onFile }: { file: UploadFile | null; onFile(file: UploadFile): void }) {
  const [over, setOver] = useState(false);
  const latest = useRef(onFile);
  latest.current = onFile;
  useEffect(() => {
    const bridge = desktopBridge();
    if (!bridge) return;
    return bridge.onImportFile((picked) => latest.current(fromPickedFile(picked)));
  }, []);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped) onFile({ name: dropped.name, blob: dropped });
  };
  return (
    <section
      className={`drop-zone${over ? ' drop-zone-over' : ''}`}
      aria-label="File to import"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      {file ? (
        <p className="drop-zone-file">
          <strong>{file.name}</strong> <span className="muted">({formatBytes(file.blob.size)})</span>
        </p>
      ) : (
        <p className="drop-zone-hint">Drop a CSV, Excel (.xlsx, .xls), OpenDocument (.ods) or JSON file here, or</p>
      )}
      <PickFileButton label={file ? 'Choose another file' : 'Choose a file'} onFile={onFile} />
    </section>
  );
}
