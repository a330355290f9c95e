/**
 * A minimal JSON Schema (OpenAPI 3.1) checker for the recorded Mollie answers: the keywords Mollie's
 * description uses ($ref, type with null, required, properties, additionalProperties, items, enum,
 * pattern, lengths, bounds, allOf, anyOf, oneOf). Formats and documentation keys are not checked.
 * Answers the list of problems, each with the path where it is; empty means valid.
 */
type Schema = Record<string, unknown>;

export function checkSchema(
  value: unknown,
  schema: Schema,
  root: { components: { schemas: Record<string, Schema> } },
  path = "$",
): string[] {
  const errors: string[] = [];
  const sub = (v: unknown, s: Schema, p: string) => checkSchema(v, s, root, p);
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = root.components.schemas[name];
    if (!target) return [`${path}: unknown $ref ${schema.$ref}`];
    errors.push(...sub(value, target, path));
  }
  const types = schema.type === undefined ? null : ([] as string[]).concat(schema.type as string | string[]);
  if (types && !types.some((t) => typeOk(value, t)))
    return [...errors, `${path}: ${JSON.stringify(value)?.slice(0, 60)} is not ${types.join("|")}`];
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value))
    errors.push(`${path}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
  if (typeof value === "string") {
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value))
      errors.push(`${path}: "${value}" does not match ${schema.pattern}`);
    if (typeof schema.minLength === "number" && value.length < schema.minLength)
      errors.push(`${path}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength)
      errors.push(`${path}: longer than ${schema.maxLength}`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) errors.push(`${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) errors.push(`${path}: above ${schema.maximum}`);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? [])
      if (!(key in obj)) errors.push(`${path}: missing required "${key}"`);
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, v] of Object.entries(obj)) {
      if (props[key]) errors.push(...sub(v, props[key]!, `${path}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected "${key}"`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === "object")
        errors.push(...sub(v, schema.additionalProperties as Schema, `${path}.${key}`));
    }
  }
  if (Array.isArray(value) && schema.items)
    value.forEach((v, i) => errors.push(...sub(v, schema.items as Schema, `${path}[${i}]`)));
  for (const s of (schema.allOf as Schema[] | undefined) ?? []) errors.push(...sub(value, s, path));
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (!options) continue;
    const results = options.map((s) => sub(value, s, path));
    const fits = results.filter((r) => r.length === 0).length;
    // oneOf: exactly one fits (Mollie's oneOf alternatives are disjoint by their required fields).
    if (fits === 0 || (key === "oneOf" && fits > 1))
      errors.push(
        `${path}: ${fits} of the ${key} alternatives fit (${results
          .map((r) => r[0])
          .join("; ")
          .slice(0, 300)})`,
      );
  }
  return errors;
}

function typeOk(v: unknown, t: string): boolean {
  switch (t) {
    case "null":
      return v === null;
    case "string":
      return typeof v === "string";
    case "boolean":
      return typeof v === "boolean";
    case "integer":
      return Number.isInteger(v);
    case "number":
      return typeof v === "number";
    case "array":
      return Array.isArray(v);
    case "object":
      return !!v && typeof v === "object" && !Array.isArray(v);
    default:
      return false;
  }
}
