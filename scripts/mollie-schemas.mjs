/**
 * Extracts from Mollie's published OpenAPI description (github.com/mollie/openapi, specs.yaml) the
 * response schemas our adapter reads, with every schema they refer to, into
 * tests/worker/mollie/schemas.json. The recorded answers are validated against them
 * (tests/worker/mollie-schemas.test.ts), so the adapter's assumptions are checked by something it
 * did not write. Usage: node scripts/mollie-schemas.mjs path/to/specs.yaml [commit]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { load } from "js-yaml";

const [file, commit = "unknown"] = process.argv.slice(2);
if (!file) throw new Error("usage: node scripts/mollie-schemas.mjs specs.yaml [commit]");
const spec = load(readFileSync(file, "utf8"));

/** Operation responses by name: [path, method, status]. */
const RESPONSES = {
  "create-payment": ["/v2/payments", "post", "201"],
  "get-payment": ["/v2/payments/{paymentId}", "get", "200"],
  "create-refund": ["/v2/payments/{paymentId}/refunds", "post", "201"],
  "list-methods": ["/v2/methods", "get", "200"],
  "create-customer": ["/v2/customers", "post", "201"],
  "create-mandate": ["/v2/customers/{customerId}/mandates", "post", "201"],
  "list-mandates": ["/v2/customers/{customerId}/mandates", "get", "200"],
  "list-customer-payments": ["/v2/customers/{customerId}/payments", "get", "200"],
  "list-settlements": ["/v2/settlements", "get", "200"],
  "list-settlement-payments": ["/v2/settlements/{settlementId}/payments", "get", "200"],
  "list-settlement-refunds": ["/v2/settlements/{settlementId}/refunds", "get", "200"],
  "list-settlement-chargebacks": ["/v2/settlements/{settlementId}/chargebacks", "get", "200"],
};
/** Schemas read on their own: the embedded refunds and chargebacks of a payment, and errors. */
const EXTRA = ["entity-refund-response", "entity-chargeback", "error-response"];

const DROP = new Set([
  "description",
  "example",
  "examples",
  "readOnly",
  "writeOnly",
  "deprecated",
  "externalDocs",
  "format",
]);
/** The schema without documentation (smaller, same meaning). */
function strip(node) {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node))
    if (!DROP.has(k) && !k.startsWith("x-"))
      out[k] = k === "properties" ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strip(s)])) : strip(v);
  return out;
}

const used = new Set();
function collect(node) {
  if (Array.isArray(node)) return node.forEach(collect);
  if (!node || typeof node !== "object") return;
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
      const name = v.slice("#/components/schemas/".length);
      if (!used.has(name)) {
        used.add(name);
        collect(spec.components.schemas[name]);
      }
    } else collect(v);
  }
}

const responses = {};
for (const [name, [path, method, status]] of Object.entries(RESPONSES)) {
  const schema = spec.paths[path][method].responses[status].content["application/hal+json"].schema;
  responses[name] = strip(schema);
  collect(schema);
}
for (const name of EXTRA) {
  used.add(name);
  collect(spec.components.schemas[name]);
}
const schemas = Object.fromEntries([...used].sort().map((n) => [n, strip(spec.components.schemas[n])]));
const out = {
  $comment: `Extracted by scripts/mollie-schemas.mjs from Mollie's OpenAPI description, github.com/mollie/openapi specs.yaml at commit ${commit}. Documentation keys dropped; regenerate, do not edit.`,
  responses,
  components: { schemas },
};
writeFileSync(new URL("../tests/worker/mollie/schemas.json", import.meta.url), JSON.stringify(out, null, 1) + "\n");
console.log(`${Object.keys(responses).length} responses, ${used.size} schemas`);
