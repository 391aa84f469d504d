import { type ReactNode, useState } from 'react';
import './JsonTree.css';
import { childPath, entriesOf, isContainer } from './json-paths.ts';

function Leaf({ value }: { value: unknown }) {
  if (value === null) return <span className="json-null">null</span>;
  if (typeof value === 'string') return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  return <span>{JSON.stringify(value)}</span>;
}

function KeyLabel({ name }: { name: string | number | null }) {
  if (name === null) return null;
  return (
    <>
      <span className={typeof name === 'number' ? 'json-index' : 'json-key'}>{typeof name === 'number' ? name : JSON.stringify(name)}</span>
      <span className="json-punct">: </span>
    </>
  );
}

function Node({
  name,
  value,
  path,
  depth,
  openDepth,
  marked,
}: {
  name: string | number | null;
  value: unknown;
  path: string;
  depth: number;
  openDepth: number;
  marked?: ReadonlySet<string>;
}) {
  const mark = marked?.has(path) ? ' json-marked' : '';
  if (!isContainer(value)) {
    return (
      <li className={`json-leaf${mark}`} data-json-path={path}>
        <KeyLabel name={name} />
        <Leaf value={value} />
      </li>
    );
  }
  const entries = entriesOf(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const size = Array.isArray(value)
    ? `${entries.length} ${entries.length === 1 ? 'item' : 'items'}`
    : `${entries.length} ${entries.length === 1 ? 'key' : 'keys'}`;
  if (entries.length === 0) {
    return (
      <li className={`json-leaf${mark}`} data-json-path={path}>
        <KeyLabel name={name} />
        <span className="json-punct">
          {open}
          {close}
        </span>
      </li>
    );
  }
  return (
    <li className={`json-node${mark}`} data-json-path={path}>
      <details open={depth < openDepth}>
        <summary>
          <KeyLabel name={name} />
          <span className="json-punct">{open}</span>
          <span className="json-size"> {size} </span>
          <span className="json-punct json-closed-only">{close}</span>
        </summary>
        <ul className="json-children">
          {entries.map(([key, child]) => (
            <Node key={key} name={key} value={child} path={childPath(path, key)} depth={depth + 1} openDepth={openDepth} marked={marked} />
          ))}
        </ul>
        <span className="json-punct">{close}</span>
      </details>
    </li>
  );
}

/**
 * A JSON value as a tree of native <details> elements: collapsible with mouse and keyboard,
 * "Expand all" and "Collapse all" above. `marked` paths (see childPath) are highlighted.
 */
export function JsonTree({
  value,
  label,
  openDepth = 3,
  marked,
  actions,
}: {
  value: unknown;
  label: string;
  openDepth?: number;
  marked?: ReadonlySet<string>;
  actions?: ReactNode;
}) {
  const [view, setView] = useState<{ depth: number; version: number }>({ depth: openDepth, version: 0 });
  return (
    <fieldset className="json-tree" aria-label={label}>
      {isContainer(value) && (
        <div className="json-toolbar">
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => setView((v) => ({ depth: Number.POSITIVE_INFINITY, version: v.version + 1 }))}
          >
            Expand all
          </button>
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => setView((v) => ({ depth: 1, version: v.version + 1 }))}
          >
            Collapse all
          </button>
          {actions}
        </div>
      )}
      <ul className="json-root" key={view.version}>
        <Node name={null} value={value} path="" depth={0} openDepth={view.depth} marked={marked} />
      </ul>
    </fieldset>
  );
}
