/**
 * The images Worker (decision 171): re-encodes uploads for the page Worker, which calls it over a
 * service binding (IMAGES, RPC). Not reachable from the internet (no routes, workers_dev off).
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import type { ImageVariants as Variants } from "../../app/lib/env";
import { reencode } from "./reencode";

export default class Images extends WorkerEntrypoint {
  /** An upload's bytes -> the full, thumb and blur JPEGs (EXIF and GPS dropped). Throws on an undecodable image. */
  async reencode(bytes: Uint8Array): Promise<Variants> {
    return reencode(bytes);
  }

  async fetch(): Promise<Response> {
    return new Response("Not found", { status: 404 });
  }
}
