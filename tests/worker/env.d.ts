import type { D1Migration } from "cloudflare:test";
import type { Env as AppEnv } from "../../app/lib/env";

// Bindings as the tests see them (env from cloudflare:test / cloudflare:workers).
declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
