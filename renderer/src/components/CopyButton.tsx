import { useEffect, useState } from 'react';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard refused (permissions): fall back to a selection copy.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** ariaLabel tells apart several identical buttons, e.g. one per table row. */
export function CopyButton({
  text,
  label = 'Copy',
  className = '',
  ariaLabel,
}: {
  text: string;
  label?: string;
  className?: string;
  ariaLabel?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className={`button button-small ${className}`}
      aria-label={ariaLabel}
      onClick={async () => setState((await copyText(text)) ? 'copied' : 'failed')}
    >
      {label}
      <span className="copy-state" role="status">
        {state === 'copied' ? ' ✓ Copied' : state === 'failed' ? ' (select the text and press Ctrl+C)' : ''}
      </span>
    </button>
  );
}
