export interface Stat {
  key: string;
  label: string;
  value: number;
}

/** Numbers with their names, as tiles (import counts, demo data added). Nothing when there are none. */
export function StatList({ stats, label }: { stats: Stat[]; label?: string }) {
  if (stats.length === 0) return null;
  return (
    <ul className="stats" aria-label={label}>
      {stats.map((s) => (
        <li key={s.key} className="stat">
          <span className="stat-value">{s.value.toLocaleString()}</span>
          <span className="stat-label">{s.label}</span>
        </li>
      ))}
    </ul>
  );
}
