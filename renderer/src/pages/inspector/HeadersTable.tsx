import { Table } from '../../components/Table.tsx';

/** Header names and values, one row each; `marked` rows stand out. */
export function HeadersTable({ headers, label, marked }: { headers: Record<string, string>; label: string; marked?: ReadonlySet<string> }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="muted">No headers.</p>;
  return (
    <Table label={label} headings={['Header', 'Value']} className="table table-compact">
      {entries.map(([name, value]) => (
        <tr key={name} className={marked?.has(name) ? 'row-marked' : undefined}>
          <th scope="row" className="header-name">
            {name}
          </th>
          <td className="header-value">{value}</td>
        </tr>
      ))}
    </Table>
  );
}
