import { CHUNK_RELOAD_GUARD_S } from "./constants";

const KEY = "chunk-reload-at";

/** A failed chunk load (after a deploy) reloads the page, at most once per minute (docs/product/validation.md §8). */
export function installChunkReloadGuard() {
  const onFailure = (message: string) => {
    if (!/Loading chunk|dynamically imported module|Importing a module script failed/i.test(message)) return;
    const last = Number(sessionStorage.getItem(KEY) ?? 0);
    if (Date.now() - last < CHUNK_RELOAD_GUARD_S * 1000) return;
    sessionStorage.setItem(KEY, String(Date.now()));
    location.reload();
  };
  window.addEventListener("error", (e) => onFailure(String(e.message ?? "")));
  window.addEventListener("unhandledrejection", (e) => onFailure(String((e.reason as Error)?.message ?? e.reason)));
}
