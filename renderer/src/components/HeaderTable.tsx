/** HTTP headers as a name/value table, with an optional first row (such as the method and URL). */
export function HeaderTable({
  label,
  first,
  headers,
  className = 'table table-compact',
}: {
  label: string;
  first?: [string, string];
  headers: Record<string, string>;
  className?: string;
}) {
  const rows = Object.entries(headers);
  return (
    <div className="table-scroll">
      <table className={className} aria-label={label}>
        <tbody>
          {first && (
            <tr>
              <th scope="row">
                <code>{first[0]}</code>
              </th>
              <td>
                <code className="break">{first[1]}</code>
              </td>
            </tr>
          )}
          {rows.map(([name, value]) => (
            <tr key={name}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                <code className="break">{value}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
