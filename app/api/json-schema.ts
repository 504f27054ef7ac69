/**
 * A small JSON Schema (2020-12) checker for the subset z.toJSONSchema emits, used by the tests
 * to hold real /api answers against the OpenAPI document. A keyword it does not know is an
 * error, so a schema can never pass by being misunderstood.
 */

type Schema = Record<string, unknown> | boolean;

const KNOWN = new Set([
  "$ref",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
  "format",
  "description",
  "default",
  "title",
  "examples",
  "contentMediaType",
]);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

const FORMATS: Record<string, (v: string) => boolean> = {
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
  "date-time": (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
};

/**
 * The problems of `value` against `schema` (empty when it conforms). `root` resolves
 * `#/...` references (the OpenAPI document).
 */
export function validateJsonSchema(value: unknown, schema: Schema, root: Record<string, unknown>, path = "$"): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key)) throw new Error(`Unsupported JSON Schema keyword "${key}" at ${path}`);
  }
  const errors: string[] = [];
  const s = schema as Record<string, unknown>;

  if (typeof s.$ref === "string") {
    const target = resolve(root, s.$ref);
    errors.push(...validateJsonSchema(value, target, root, path));
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeMatches(value, t))) {
      return [...errors, `${path}: expected ${types.join(" or ")}, got ${typeOf(value)}`];
    }
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => e === value)) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  }
  if (s.const !== undefined && s.const !== value) errors.push(`${path}: expected ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.anyOf)) {
    const ok = (s.anyOf as Schema[]).some((sub) => validateJsonSchema(value, sub, root, path).length === 0);
    if (!ok) errors.push(`${path}: matches none of anyOf`);
  }
  if (Array.isArray(s.oneOf)) {
    const n = (s.oneOf as Schema[]).filter((sub) => validateJsonSchema(value, sub, root, path).length === 0).length;
    if (n !== 1) errors.push(`${path}: matches ${n} of oneOf (needs exactly 1)`);
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) errors.push(...validateJsonSchema(value, sub, root, path));

  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) errors.push(`${path}: ${value} < minimum ${s.minimum}`);
    if (typeof s.maximum === "number" && value > s.maximum) errors.push(`${path}: ${value} > maximum ${s.maximum}`);
    if (typeof s.exclusiveMinimum === "number" && value <= s.exclusiveMinimum) errors.push(`${path}: ${value} <= ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === "number" && value >= s.exclusiveMaximum) errors.push(`${path}: ${value} >= ${s.exclusiveMaximum}`);
  }
  if (typeof value === "string") {
    if (typeof s.minLength === "number" && [...value].length < s.minLength) errors.push(`${path}: shorter than ${s.minLength}`);
    if (typeof s.maxLength === "number" && [...value].length > s.maxLength) errors.push(`${path}: longer than ${s.maxLength}`);
    if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value)) errors.push(`${path}: does not match ${s.pattern}`);
    if (typeof s.format === "string") {
      const check = FORMATS[s.format];
      if (!check) throw new Error(`Unsupported format "${s.format}" at ${path}`);
      if (!check(value)) errors.push(`${path}: ${JSON.stringify(value)} is not a ${s.format}`);
    }
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems) errors.push(`${path}: fewer than ${s.minItems} items`);
    if (typeof s.maxItems === "number" && value.length > s.maxItems) errors.push(`${path}: more than ${s.maxItems} items`);
    if (s.items !== undefined) value.forEach((item, i) => errors.push(...validateJsonSchema(item, s.items as Schema, root, `${path}[${i}]`)));
  }
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[]) if (!(key in obj)) errors.push(`${path}: missing required "${key}"`);
    for (const [key, v] of Object.entries(obj)) {
      if (key in props) errors.push(...validateJsonSchema(v, props[key]!, root, `${path}.${key}`));
      else if (s.additionalProperties !== undefined) {
        errors.push(...validateJsonSchema(v, s.additionalProperties as Schema, root, `${path}.${key}`).map((e) =>
          s.additionalProperties === false ? `${path}: unexpected property "${key}"` : e,
        ));
      }
      if (s.propertyNames !== undefined) errors.push(...validateJsonSchema(key, s.propertyNames as Schema, root, `${path}{${key}}`));
    }
  }
  return errors;
}

function resolve(root: Record<string, unknown>, ref: string): Schema {
  if (!ref.startsWith("#/")) throw new Error(`Only local references are supported: ${ref}`);
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  if (node === undefined) throw new Error(`Unresolved reference ${ref}`);
  return node as Schema;
}
