/** Remix classic compiler, bundling the server for workerd; wrangler bundles app/entry.worker.ts. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// Remix's own flat-routes reader (the one it runs on app/routes/), given a list of files instead of a folder.
import { flatRoutesUniversal } from "@remix-run/dev/dist/config/flat-routes.js";

const appDirectory = fileURLToPath(new URL("app", import.meta.url));

/**
 * Route modules live in area folders, app/routes/<area>/<flat name> (decision 235). The folder only
 * groups: the file's name is Remix's flat-route name and decides URL, nesting, index and route id exactly
 * as if the file sat in app/routes/ (so `routes/admin.members.$id` is app/routes/admin/admin.members.$id.tsx).
 * A module beside the routes that is not one (`*.server.ts`, tests, dotfiles) is skipped.
 */
export function areaRoutes() {
  const routesDir = join(appDirectory, "routes");
  /** @type {Map<string, string>} flat file name -> area folder */
  const areaOf = new Map();
  for (const area of readdirSync(routesDir, { withFileTypes: true })) {
    if (!area.isDirectory()) throw new Error(`app/routes/${area.name}: a route module belongs in an area folder`);
    for (const file of readdirSync(join(routesDir, area.name))) {
      if (file.startsWith(".") || /\.(server|test)\./.test(file) || !/\.(tsx?|jsx?)$/.test(file)) continue;
      const other = areaOf.get(file);
      if (other) throw new Error(`app/routes/${area.name}/${file}: the same route is in app/routes/${other}/`);
      areaOf.set(file, area.name);
    }
  }
  const manifest = flatRoutesUniversal(
    appDirectory,
    [...areaOf.keys()].map((file) => join(routesDir, file)),
  );
  for (const route of Object.values(manifest)) {
    const file = route.file.slice("routes/".length);
    route.file = `routes/${areaOf.get(file)}/${file}`;
  }
  return manifest;
}

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Remix's default reading of app/routes/ is off: areaRoutes() reads the area folders.
  ignoredRouteFiles: ["**/*"],
  routes: async () => areaRoutes(),
  serverBuildPath: "build/index.js",
  serverConditions: ["workerd", "worker", "browser"],
  // Photon (image re-encoding) lives in the images Worker (workers/images, decision 171).
  // Every package is bundled but workerd's own modules (cloudflare:workers, the Durable Objects' base
  // class), which the server build imports through app/worker.server.ts (decision 195).
  serverDependenciesToBundle: [/^(?!cloudflare:)/],
  serverMainFields: ["browser", "module", "main"],
  serverMinify: false,
  serverModuleFormat: "esm",
  serverPlatform: "neutral",
  browserNodeBuiltinsPolyfill: { modules: {} },
  watchPaths: ["locales/**", "db/**"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
