/** Paths inside a JSON value, as JsonTree names them, and where two values differ. */

/** "data.services[0].name": the path of a value inside a JSON document, as JsonTree and jsonDifferences name it. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

export function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

export function entriesOf(value: Record<string, unknown> | unknown[]): [string | number, unknown][] {
  return Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
}

export interface ChangedValue {
  path: string;
  /** undefined when the value is absent on that side. */
  a: unknown;
  b: unknown;
}

interface Change extends ChangedValue {
  /** The paths of the containers above it, outermost first (not the root). */
  above: string[];
}

function changes(a: unknown, b: unknown): Change[] {
  const found: Change[] = [];
  const walk = (x: unknown, y: unknown, path: string, above: string[]): void => {
    if (isContainer(x) && isContainer(y) && Array.isArray(x) === Array.isArray(y)) {
      const left = new Map(entriesOf(x));
      const right = new Map(entriesOf(y));
      const inner = path === '' ? above : [...above, path];
      for (const key of new Set([...left.keys(), ...right.keys()])) {
        const child = childPath(path, key);
        if (!left.has(key) || !right.has(key)) found.push({ path: child, a: left.get(key), b: right.get(key), above: inner });
        else walk(left.get(key), right.get(key), child, inner);
      }
      return;
    }
    const same = !isContainer(x) && !isContainer(y) ? Object.is(x, y) : JSON.stringify(x) === JSON.stringify(y);
    if (!same) found.push({ path, a: x, b: y, above });
  };
  walk(a, b, '', []);
  return found;
}

/** The deepest points where a and b differ: changed, added or removed values, or a change of type. */
export function changedValues(a: unknown, b: unknown): ChangedValue[] {
  return changes(a, b).map(({ path, a: left, b: right }) => ({ path, a: left, b: right }));
}

/** Every path (see childPath) whose value differs between a and b, with the containers above them. */
export function jsonDifferences(a: unknown, b: unknown): Set<string> {
  return new Set(changes(a, b).flatMap((c) => [c.path, ...c.above]));
}
