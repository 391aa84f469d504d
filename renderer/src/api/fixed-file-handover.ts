import type { UploadFile } from './request.ts';
import type { ImportKindName } from './import-form.ts';

/** A fixed error report chosen on a task page, on its way to the Imports page, which previews it before sending. */
export interface HandedFixedFile {
  file: UploadFile;
  kind: ImportKindName;
  handler: string;
  /** The import whose error report it is (fixes_task_uuid). */
  fixesTask: string;
}

let handed: HandedFixedFile | null = null;

export function handOverFixedFile(next: HandedFixedFile): void {
  handed = next;
}

/** The file handed over, once: a later visit of the Imports page starts empty. */
export function takeHandedFixedFile(): HandedFixedFile | null {
  const taken = handed;
  handed = null;
  return taken;
}
