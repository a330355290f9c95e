import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { e2eEndpoint } from "~/lib/e2e.server";
import { jsonResponse } from "~/lib/json.server";

type Statement = { sql: string; params?: unknown[] };
type Body = { statements: Statement[]; mode: "first" | "all" | "run" | "batch"; column?: string };

/**
 * End-to-end tests only (ENVIRONMENT=test, on localhost): runs the tests' set-up SQL inside the Worker,
 * so test data goes through the same D1 as the server instead of a second process that would find
 * the SQLite files locked. Answers 404 everywhere else.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!e2eEndpoint(request, context.env)) return new Response("Not found", { status: 404 });
  const body = (await request.json()) as Body;
  const db = context.env.DB;
  // oxlint-disable-next-line no-restricted-properties -- the development SQL page runs the SQL it is given, by design
  const statements = body.statements.map((s) => db.prepare(s.sql).bind(...(s.params ?? [])));
  const result =
    body.mode === "batch"
      ? await db.batch(statements)
      : body.mode === "first"
        ? await (body.column ? statements[0]!.first(body.column) : statements[0]!.first())
        : body.mode === "all"
          ? await statements[0]!.all()
          : await statements[0]!.run();
  return jsonResponse({ result });
}

export function loader() {
  return new Response("Not found", { status: 404 });
}
