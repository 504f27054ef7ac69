import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * Holds real /api answers against the served OpenAPI document with Ajv (JSON Schema 2020-12, the
 * document's dialect). Ajv stays strict, so a schema keyword it does not know is an error rather
 * than a silent pass; `components` is declared because the OpenAPI document is the root that
 * `#/components/...` references resolve against.
 */
const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: true });
addFormats(ajv, ["uuid", "date-time", "date", "email"]);
ajv.addKeyword("components");

const compiled = new WeakMap<object, ValidateFunction>();

function message(error: ErrorObject): string {
  const path = `$${error.instancePath.replaceAll("/", ".")}`;
  if (error.keyword === "additionalProperties") return `${path}: unexpected property "${error.params.additionalProperty}"`;
  if (error.keyword === "required") return `${path}: missing required "${error.params.missingProperty}"`;
  return `${path}: ${error.message}`;
}

/**
 * The problems of `value` against `schema` (empty when it conforms). `root` (the OpenAPI
 * document) resolves the schema's `#/components/...` references.
 */
export function validateJsonSchema(value: unknown, schema: Record<string, unknown> | boolean, root: Record<string, unknown>): string[] {
  const key = typeof schema === "boolean" ? { boolean: schema } : schema;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(typeof schema === "boolean" ? schema : { ...schema, components: root.components });
    compiled.set(key, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map(message);
}

interface DocumentedOperation {
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}

/**
 * Checks one real /api answer against an OpenAPI document's schema for its path, method and
 * status (vitest's expect), and gives back its body.
 */
export async function conformsTo(
  doc: { paths: Record<string, Record<string, DocumentedOperation>> },
  response: Response,
  path: string,
  method: string,
): ReturnType<Response["json"]> {
  const { expect } = await import("vitest");
  const op = doc.paths[path]?.[method];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const documented = op!.responses[String(response.status)];
  expect(documented, `${method} ${path} documents ${response.status}`).toBeDefined();
  const schema = documented!.content?.["application/json"]?.schema;
  expect(schema, `${method} ${path} ${response.status} has a JSON schema`).toBeDefined();
  const body = await response.json();
  expect(validateJsonSchema(body, schema!, doc as unknown as Record<string, unknown>)).toEqual([]);
  return body;
}
