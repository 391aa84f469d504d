import { useState } from 'react';
import type { ApiRequest } from '../api/client.ts';
import { toCurl } from '../api/curl.ts';
import { useSessionStore } from '../auth/session-store.ts';
import { CopyButton } from './CopyButton.tsx';
import { CodeBlock } from './CodeBlock.tsx';

/** "Show curl": the same call as a command line, the secret masked until the user reveals it. */
export function CurlDisclosure({
  request,
  download = false,
  label = 'Show curl',
}: {
  request: ApiRequest;
  download?: boolean;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  const [reveal, setReveal] = useState(false);
  const state = useSessionStore((s) => s.state);
  const credential = state.status === 'signed-in' ? state.credential : null;
  const command = open ? toCurl(request, { origin: window.location.origin, credential, revealSecret: reveal, download }) : '';
  return (
    <details className="curl" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{label}</summary>
      {open && (
        <div className="curl-body">
          <CodeBlock label="curl command" className="code">
            {command}
          </CodeBlock>
          <div className="curl-actions">
            <label className="checkbox">
              <input type="checkbox" checked={reveal} onChange={(e) => setReveal(e.target.checked)} />
              Show the secret
            </label>
            <CopyButton text={command} label="Copy command" />
          </div>
        </div>
      )}
    </details>
  );
}
