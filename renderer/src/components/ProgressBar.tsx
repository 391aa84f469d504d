export function ProgressBar({ value, label, compact = false }: { value: number; label: string; compact?: boolean }) {
  const clamped = Math.max(0, Math.min(100, Number.isFinite(value) ? value : 0));
  const text = `${clamped.toFixed(clamped % 1 === 0 ? 0 : 1)}%`;
  return (
    <div className={`progress ${compact ? 'progress-compact' : ''}`}>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={clamped}
        aria-valuetext={text}
      >
        <div className="progress-fill" style={{ width: `${clamped}%` }} />
      </div>
      <span className="progress-text">{text}</span>
    </div>
  );
}
