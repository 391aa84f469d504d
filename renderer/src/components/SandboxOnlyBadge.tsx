/** Marks what QR Sandbox adds to the service: nothing of it exists there. */
export function SandboxOnlyBadge() {
  return (
    <span className="badge" title="The real service has nothing like it: do not build your app on it.">
      QR Sandbox only
    </span>
  );
}
