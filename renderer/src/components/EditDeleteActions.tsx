/** The Edit and Delete buttons of a table row, labelled with the row's name for screen readers and tests. */
export function EditDeleteActions({ name, onEdit, onDelete }: { name: string; onEdit(): void; onDelete(): void }) {
  return (
    <td>
      <div className="row-actions">
        <button type="button" className="button button-small" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="button button-small button-danger-quiet" aria-label={`Delete ${name}`} onClick={onDelete}>
          Delete
        </button>
      </div>
    </td>
  );
}
