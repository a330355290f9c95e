import { DurableObject } from "cloudflare:workers";
import type { Env } from "../lib/env";

/** One conversation. Filled in by the chat issue; the class exists so the binding deploys. */
export class ChatRoom extends DurableObject<Env> {
  async fetch(): Promise<Response> {
    return new Response("Not implemented", { status: 501 });
  }
}
