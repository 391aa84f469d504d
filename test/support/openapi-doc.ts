/** Reading an OpenAPI document in tests: refs, the properties a schema guarantees, operations. */

export type Json = Record<string, unknown>;

export function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local ref: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Json)[part] : undefined), doc);
}

export function deref(doc: Json, node: unknown): Json {
  let current = node as Json;
  while (current && typeof current.$ref === 'string') current = resolvePointer(doc, current.$ref) as Json;
  return current;
}

/** Every `$ref` in the document, with where it is. */
export function allRefs(node: unknown, at = '#'): { at: string; ref: string }[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => allRefs(item, `${at}/${i}`));
  return Object.entries(node as Json).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [{ at, ref: value }] : allRefs(value, `${at}/${key}`),
  );
}

/**
 * The property names a value of this schema always may carry: an object's properties; for a
 * union, those every non-null member has (so a field of each task kind, say, counts only when
 * all kinds have it).
 */
export function propertyNames(doc: Json, node: unknown): Set<string> {
  const schema = deref(doc, node);
  const members = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (members) {
    const sets = members
      .map((m) => deref(doc, m))
      .filter((m) => m.type !== 'null')
      .map((m) => propertyNames(doc, m));
    const [first, ...rest] = sets;
    return new Set([...(first ?? [])].filter((name) => rest.every((set) => set.has(name))));
  }
  if (schema.type === 'array') return propertyNames(doc, schema.items);
  return new Set(Object.keys((schema.properties as Json | undefined) ?? {}));
}

export interface DocOperation {
  path: string;
  method: string;
  op: Json;
}

export function operations(doc: Json): DocOperation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Json })),
  );
}

/** The JSON schema of an operation's answer with this status. */
export function responseSchema(doc: Json, op: Json, status: number | string): Json {
  const response = deref(doc, (op.responses as Json)[String(status)]);
  return ((response.content as Json)['application/json'] as Json).schema as Json;
}
