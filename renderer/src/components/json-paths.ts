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

/** Every path (see childPath) whose value differs between a and b, with the containers above them. */
export function jsonDifferences(a: unknown, b: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (x: unknown, y: unknown, path: string): boolean => {
    if (isContainer(x) && isContainer(y) && Array.isArray(x) === Array.isArray(y)) {
      const keys = new Set<string | number>([...entriesOf(x).map(([k]) => k), ...entriesOf(y).map(([k]) => k)]);
      let differs = false;
      for (const key of keys) {
        const left = (x as Record<string | number, unknown>)[key];
        const right = (y as Record<string | number, unknown>)[key];
        const inX = Array.isArray(x) ? typeof key === 'number' && key < x.length : Object.hasOwn(x, key);
        const inY = Array.isArray(y) ? typeof key === 'number' && key < y.length : Object.hasOwn(y, key);
        const childDiffers = inX !== inY ? true : walk(left, right, childPath(path, key));
        if (childDiffers) {
          found.add(childPath(path, key));
          differs = true;
        }
      }
      if (differs && path !== '') found.add(path);
      return differs;
    }
    const same = !isContainer(x) && !isContainer(y) ? Object.is(x, y) : JSON.stringify(x) === JSON.stringify(y);
    if (!same) found.add(path);
    return !same;
  };
  walk(a, b, '');
  return found;
}
