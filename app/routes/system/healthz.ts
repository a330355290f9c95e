/** A trivial route through the same Worker and Remix: liveness checks and the benchmark's baseline. */
export function loader() {
  return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}
