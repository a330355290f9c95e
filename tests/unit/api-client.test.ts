import { describe, expect, it, vi } from "vitest";
import { apiFetch, AuthenticationRequired } from "~/lib/api-client";
import { RETRIES } from "~/lib/constants";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("apiFetch", () => {
  it("logs out silently on a 403 carrying authentication_required", async () => {
    const calls: string[] = [];
    const fetch = vi.fn(async (url: string | URL | Request) => {
      calls.push(String(url));
      return String(url) === "/api/logout.php"
        ? json(200, { ok: true })
        : json(403, { error: "authentication_required" });
    }) as unknown as typeof globalThis.fetch;
    const onLoggedOut = vi.fn();
    await expect(apiFetch("/api/chats.php", {}, { fetch, onLoggedOut, sleep: async () => {} })).rejects.toBeInstanceOf(
      AuthenticationRequired,
    );
    expect(calls).toEqual(["/api/chats.php", "/api/logout.php"]);
    expect(onLoggedOut).toHaveBeenCalledOnce();
  });

  it("leaves other 403 answers to the caller", async () => {
    const fetch = vi.fn(async () => json(403, { error: "account_blocked" })) as unknown as typeof globalThis.fetch;
    const onLoggedOut = vi.fn();
    expect((await apiFetch("/api/user.php", {}, { fetch, onLoggedOut })).status).toBe(403);
    expect(onLoggedOut).not.toHaveBeenCalled();
  });

  it(`retries up to ${RETRIES} times with a growing delay`, async () => {
    const fetch = vi.fn(async () => json(503, {})) as unknown as typeof globalThis.fetch;
    const delays: number[] = [];
    const res = await apiFetch(
      "/api/likes.php",
      {},
      { fetch, sleep: async (ms) => void delays.push(ms), onLoggedOut: () => {} },
    );
    expect(res.status).toBe(503);
    expect(fetch).toHaveBeenCalledTimes(RETRIES + 1);
    expect(delays).toEqual([250, 500, 1000, 2000, 4000]);
  });
});
