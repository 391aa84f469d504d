import { ApiFailure } from '../api/client.ts';
import { describeError } from '../api/describe-error.ts';

/** An API error in plain words, placed next to what caused it. Never swallowed. */
export function ErrorNotice({
  error,
  onRetry,
  onDismiss,
  fieldsShown = [],
}: {
  error: unknown;
  onRetry?: () => void;
  onDismiss?: () => void;
  /** Fields whose problem is already shown next to the field; not repeated here. */
  fieldsShown?: string[];
}) {
  if (!error) return null;
  const described = describeError(error);
  const fields = described.fields.filter((f) => !fieldsShown.includes(f.field));
  const plain = {
    ...described,
    fields,
    message: described.fields.length > 0 && fields.length === 0 ? 'See the field marked above.' : described.message,
  };
  const canRetry = onRetry && !(error instanceof ApiFailure && (error.status === 404 || error.status === 403));
  return (
    <div className="notice notice-error" role="alert">
      <div className="notice-body">
        <strong>{plain.title}.</strong> {plain.message}
        {plain.fields.length > 0 && (
          <ul className="notice-fields">
            {plain.fields.map((f) => (
              <li key={`${f.field}:${f.message}`}>
                {f.message.toLowerCase().startsWith(f.field.toLowerCase()) ? (
                  f.message
                ) : (
                  <>
                    <b>{f.field}</b>: {f.message}
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {(canRetry || onDismiss) && (
        <div className="notice-actions">
          {canRetry && (
            <button type="button" className="button button-small" onClick={onRetry}>
              Try again
            </button>
          )}
          {onDismiss && (
            <button type="button" className="button button-small button-quiet" onClick={onDismiss} aria-label="Dismiss this message">
              Dismiss
            </button>
          )}
        </div>
      )}
    </div>
  );
}
