/// <reference types="vite/client" />
/**
 * Every recorded Mollie answer (tests/worker/mollie/*.json) checked against Mollie's own published
 * description (schemas.json, extracted from github.com/mollie/openapi by scripts/mollie-schemas.mjs):
 * the recordings the adapter is tested on cannot drift into what the adapter assumes.
 */
import { describe, expect, it } from "vitest";
import schemas from "./mollie/schemas.json";
import { checkSchema } from "./schema-check";

const files = import.meta.glob("./mollie/*.json", { eager: true, import: "default" }) as Record<string, unknown>;

/** Which documented answer each recording is. */
const RECORDED: Record<string, string> = {
  "customer.json": "create-customer",
  "customer-payments-list.json": "list-customer-payments",
  "error-401.json": "error-response",
  "error-404-payment.json": "error-response",
  "error-422-amount.json": "error-response",
  "error-422-refund.json": "error-response",
  "error-409.json": "error-response",
  "error-429.json": "error-response",
  "error-503.json": "error-response",
  "mandate-directdebit.json": "create-mandate",
  "mandates-list.json": "list-mandates",
  "methods-nl.json": "list-methods",
  "payment-failed-directdebit.json": "get-payment",
  "payment-failed-recurring.json": "create-payment",
  "payment-open-swish-sek.json": "create-payment",
  "payment-open.json": "create-payment",
  "payment-paid-first.json": "get-payment",
  "payment-paid-refund-chargeback.json": "get-payment",
  "payment-chargeback-sepa.json": "get-payment",
  "payment-chargeback-reversed.json": "get-payment",
  "payment-refunded.json": "get-payment",
  "payment-expired.json": "get-payment",
  "mandates-list-invalid.json": "list-mandates",
  "refund-pending-sek.json": "create-refund",
  "refund-pending.json": "create-refund",
  "payment-paid-first-ideal.json": "get-payment",
  "settlements-list.json": "list-settlements",
  "settlement-payments.json": "list-settlement-payments",
  "settlement-refunds.json": "list-settlement-refunds",
  "settlement-chargebacks.json": "list-settlement-chargebacks",
};

const root = schemas as unknown as {
  responses: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};
const schemaOf = (name: string) => root.responses[name] ?? { $ref: `#/components/schemas/${name}` };

describe("recorded Mollie answers match Mollie's published description", () => {
  it("every recording is named here", () => {
    const names = Object.keys(files)
      .map((f) => f.replace("./mollie/", ""))
      .filter((f) => f !== "schemas.json");
    expect(names.sort()).toEqual(Object.keys(RECORDED).sort());
  });

  for (const [file, response] of Object.entries(RECORDED)) {
    it(`${file} is a valid ${response} answer`, () => {
      const answer = files[`./mollie/${file}`] as Record<string, unknown>;
      expect(checkSchema(answer, schemaOf(response), root)).toEqual([]);
      // What a payment embeds (embed=refunds,chargebacks) is checked against those objects' own schemas.
      const embedded = (answer._embedded ?? {}) as Record<string, unknown[]>;
      for (const r of embedded.refunds ?? [])
        expect(checkSchema(r, schemaOf("entity-refund-response"), root)).toEqual([]);
      for (const c of embedded.chargebacks ?? [])
        expect(checkSchema(c, schemaOf("entity-chargeback"), root)).toEqual([]);
    });
  }

  it("the checker itself refuses what the description forbids", () => {
    const bad = { ...(files["./mollie/mandate-directdebit.json"] as Record<string, unknown>) };
    delete bad.mode;
    expect(checkSchema(bad, schemaOf("create-mandate"), root).join()).toMatch(/missing required "mode"/);
    expect(checkSchema({ value: 10, currency: "EUR" }, schemaOf("amount"), root)).not.toEqual([]);
  });
});
