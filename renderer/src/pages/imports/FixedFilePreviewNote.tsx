/** Over the preview of a fixed error report: it is checked like any file before it is sent. */
export function FixedFilePreviewNote({ fileName }: { fileName: string }) {
  return (
    <p className="notice notice-info fixed-file-preview" role="status">
      <strong>{fileName}</strong> is the fixed error report of an earlier import. Check its first rows here, then send it with “Start the
      import” under “3. Send”: nothing is imported before that. Its <code>row_number</code> and <code>error</code> columns are ignored.
    </p>
  );
}
