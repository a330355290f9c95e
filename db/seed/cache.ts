/**
 * A disk cache for the seed's CPU-heavy inputs (rendered avatars, the parsed GeoNames tables), so
 * a reseed and every e2e server start skip that work. Keyed by the producing module's source and
 * the data packages' versions: changing either rebuilds. Lives in node_modules/.cache.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const modules = new URL("../../node_modules/", import.meta.url);
const dir = fileURLToPath(new URL(".cache/dating-seed/", modules));
const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(new URL(`${pkg}/package.json`, modules), "utf8")) as { version: string }).version;

export async function cachedJson<T>(
  name: string,
  module: string,
  packages: readonly string[],
  build: () => T | Promise<T>,
): Promise<T> {
  const key = createHash("sha256").update(readFileSync(fileURLToPath(module)));
  for (const pkg of packages) key.update(`${pkg}@${versionOf(pkg)}`);
  const file = `${dir}${name}-${key.digest("hex").slice(0, 16)}.json`;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    const value = await build();
    mkdirSync(dir, { recursive: true });
    for (const old of readdirSync(dir)) if (old.startsWith(`${name}-`)) rmSync(`${dir}${old}`); // stale versions
    writeFileSync(file, JSON.stringify(value));
    return value;
  }
}
