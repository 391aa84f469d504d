import { describeError } from '../api/describe-error.ts';

/** An API error in plain words, placed next to what caused it. Never swallowed. */
export function ErrorNotice({ error, onRetry, onDismiss }: { error: unknown; onRetry?: () => void; onDismiss?: () => void }) {
  if (!error) return null;
  const plain = describeError(error);
  return (
    <div className="notice notice-error" role="alert">
      <div className="notice-body">
        <strong>{plain.title}.</strong> {plain.message}
        {plain.fields.length > 0 && (
          <ul className="notice-fields">
            {plain.fields.map((f) => (
              <li key={`${f.field}:${f.message}`}>
                <b>{f.field}</b>: {f.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {(onRetry || onDismiss) && (
        <div className="notice-actions">
          {onRetry && (
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
