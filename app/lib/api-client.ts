/**
 * The browser's fetch helper for /api/*.php (docs/product/api.md §7 and docs/product/validation.md §8): retries up to RETRIES times with
 * an exponential delay on network errors and 5xx answers, and an answer carrying
 * authentication_required (403, or this app's 401) logs the member out silently and goes home.
 */
import { RETRIES } from "./constants";

export class AuthenticationRequired extends Error {
  constructor() {
    super("authentication_required");
  }
}

export interface ApiFetchDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** What happens after the silent logout (the default goes to the home page). */
  onLoggedOut: () => void;
}

const defaults = (): ApiFetchDeps => ({
  fetch: (...args) => fetch(...args),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  onLoggedOut: () => window.location.assign("/"),
});

const BASE_DELAY_MS = 250;

async function isAuthenticationRequired(res: Response): Promise<boolean> {
  if (res.status !== 403 && res.status !== 401) return false;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: string } | null;
  return body?.error === "authentication_required";
}

export async function apiFetch(
  input: string,
  init: RequestInit = {},
  deps: Partial<ApiFetchDeps> = {},
): Promise<Response> {
  const d = { ...defaults(), ...deps };
  const headers = new Headers(init.headers);
  headers.set("X-Request-Type", "fetch"); // the client request-type header of docs/product/api.md §7
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await d.fetch(input, { credentials: "same-origin", ...init, headers });
    } catch (e) {
      if (attempt >= RETRIES) throw e;
      await d.sleep(BASE_DELAY_MS * 2 ** attempt);
      continue;
    }
    if (await isAuthenticationRequired(res)) {
      await d
        .fetch("/api/logout.php", {
          method: "POST",
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        })
        .catch(() => {});
      d.onLoggedOut();
      throw new AuthenticationRequired();
    }
    if (res.status >= 500 && attempt < RETRIES) {
      await d.sleep(BASE_DELAY_MS * 2 ** attempt);
      continue;
    }
    return res;
  }
}
