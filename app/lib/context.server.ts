import type { Env } from "./env";

/** What entry.worker.ts hands to every loader and action. */
export interface LoadContext {
  env: Env;
  ctx: ExecutionContext;
  /** request.cf: Remix rebuilds the Request, so cf travels here. */
  cf: { country?: string } | undefined;
  nonce: string;
  /** Hands a request to this Worker, as if it came from outside (the payment sandbox's webhook calls). */
  deliver: (request: Request) => Promise<Response>;
}

declare module "@remix-run/cloudflare" {
  interface AppLoadContext extends LoadContext {}
}
