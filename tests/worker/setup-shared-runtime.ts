/**
 * The worker suites' second set-up file: the test files of a pool worker share one runtime (decision 244),
 * so what a file must not inherit from the one before is set anew here (D1 is emptied by setup.ts).
 */
import { beforeAll, beforeEach } from "vitest";
import { mollieTiming } from "../../app/lib/payments/mollie.server";
import { newMollieKeys, pauses } from "./mollie-support";
import { testClient } from "./worker-main";

const octet = () => Math.floor(Math.random() * 254) + 1;

// A client address of the file's own: the rate limiters' counts last a minute, across files. Mollie
// accounts of its own: the methods list cached for the file before's (Cache API) stays in the runtime.
beforeAll(() => {
  testClient.ip = `10.${octet()}.${octet()}.${octet()}`;
  newMollieKeys();
});

// Mollie's waits between attempts are recorded instead of spent (mollie-support's `pauses`), per test.
beforeEach(() => {
  pauses.length = 0;
  mollieTiming.pause = async (ms) => void pauses.push(ms);
});
