import { z } from 'zod';

/** The component name of a schema: its `.meta({ id })`. */
export function schemaName(schema: z.ZodType): string | undefined {
  return z.globalRegistry.get(schema)?.id;
}

const isSchema = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;

/** The schema a copy was made from, and the schemas a zod definition holds: shape entries, elements, options, inner types, pipe ends, lazy targets. */
function children(schema: z.ZodType): z.ZodType[] {
  const def = schema._zod.def as unknown as Record<string, unknown>;
  // A described or re-annotated copy refers to the schema it was made from.
  const parent = (schema._zod as { parent?: z.ZodType }).parent;
  const found: z.ZodType[] = parent ? [parent] : [];
  const collect = (value: unknown) => {
    if (isSchema(value)) found.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) Object.values(value).forEach(collect);
  };
  for (const [key, value] of Object.entries(def)) {
    if (key === 'getter' && typeof value === 'function') collect((value as () => unknown)());
    else if (key !== 'checks') collect(value);
  }
  return found;
}

/** Every named schema reachable from the roots, by name; two different schemas under one name are a mistake. */
export function namedSchemas(roots: z.ZodType[]): Map<string, z.ZodType> {
  const named = new Map<string, z.ZodType>();
  const seen = new Set<z.ZodType>();
  const stack = [...roots];
  while (stack.length) {
    const schema = stack.pop()!;
    if (seen.has(schema)) continue;
    seen.add(schema);
    const name = schemaName(schema);
    if (name) {
      const other = named.get(name);
      if (other && other !== schema) throw new Error(`Two different schemas are named ${name}; give one of them another id.`);
      named.set(name, schema);
    }
    stack.push(...children(schema));
  }
  return named;
}
