/**
 * Checkout figures for `npm run bench`: server time of the payment method page /credits/{id}/{method},
 * of a replayed webhook (re-fetch from the sandbox provider + guarded no-op), and of the sandbox
 * settling a payment as paid (which includes the webhook that applies it: status, credits, ledger,
 * paid_user in one batch), next to the trivial route.
 */
type TimeRoute = (
  path: string,
  n?: number,
  init?: RequestInit,
) => Promise<{ mean: number; p95: number; wallP50: number; wallP95: number }>;

export async function paymentsBench(base: string, timeRoute: TimeRoute) {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "free@example.com", password: "Demo-pass-2026", redirectTo: "/" }),
  });
  const session = res.headers.get("set-cookie")?.split(";")[0];
  if (!session) throw new Error(`login failed (${res.status})`);
  const cookie = `${session}; dev_country=NL; entry_ok=1`;

  const startPayment = async () => {
    const r = await fetch(`${base}/credits/p0/ideal`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "pay",
        method: "ideal",
        intent_key: crypto.randomUUID().replaceAll("-", ""),
      }),
    });
    const id = /\/sandbox\/(tr_\w+)/.exec(r.headers.get("location") ?? "")?.[1];
    if (!id) throw new Error(`checkout failed (${r.status})`);
    return id;
  };
  const settle = (id: string) =>
    fetch(`${base}/sandbox/${id}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ outcome: "paid" }),
    });

  const methodPage = await timeRoute("/credits/p1/ideal", 200, { headers: { Cookie: cookie } });
  const paidId = await startPayment();
  await settle(paidId);
  const webhook = await timeRoute("/api/payments/webhook", 200, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: `id=${paidId}`,
  });

  // Settling applies the payment once per id: time 50 fresh payments one by one.
  const server: number[] = [];
  for (let i = 0; i < 50; i++) {
    const id = await startPayment();
    const r = await settle(id);
    server.push(Number(/dur=([\d.]+)/.exec(r.headers.get("Server-Timing") ?? "")?.[1] ?? NaN));
  }
  const sorted = [...server].sort((a, b) => a - b);
  const checkout = {
    mean: server.reduce((a, b) => a + b, 0) / server.length,
    p95: sorted[Math.floor(sorted.length * 0.95)]!,
  };
  return { methodPage, webhook, settle: checkout };
}
