/**
 * Route modules that load on first use (decision 242). The console's and the dev tools' routes are a
 * quarter of the server build, and no member's request runs them: `npm run build` (scripts/remix-build.mjs)
 * puts each such module in a chunk of its own and hands Remix a stand-in with the same exports, whose
 * loader and action import the module and whose component, meta, links and headers use it once loaded.
 * The request handler loads the area's modules before Remix runs, so the stand-ins never wait while
 * React renders.
 */
import { createRequestHandler as remixRequestHandler } from "@remix-run/cloudflare";

type Module = Record<string, unknown>;

export type LazyRoute = {
  /** The module, loading it first when it is not yet. */
  load: () => Promise<Module>;
  /** The module, which the request handler has loaded before any stand-in's synchronous export runs. */
  get: () => Module;
  loaded: () => boolean;
};

/** URL prefix (the area's, e.g. `/admin`) -> its modules' loaders. */
const areas = new Map<string, (() => Promise<Module>)[]>();

/** Called by each stand-in as the server build starts. `loaded` sees the module once it is in. */
export function lazyRoute(
  prefix: string,
  file: string,
  importer: () => Promise<Module>,
  loaded: (m: Module) => void,
): LazyRoute {
  let module: Module | undefined;
  let loading: Promise<Module> | undefined;
  const load = () =>
    (loading ??= importer().then((m) => {
      module = m;
      loaded(m);
      return m;
    }));
  areas.set(prefix, [...(areas.get(prefix) ?? []), load]);
  return {
    load,
    get: () => {
      if (!module)
        throw new Error(`${file}: rendered before the request handler loaded it (app/lib/lazy-routes.server.ts)`);
      return module;
    },
    loaded: () => module !== undefined,
  };
}

/** The area's modules when the path is in a lazy area; null (nothing to wait for) otherwise. */
export function loadLazyRoutes(pathname: string): Promise<unknown> | null {
  for (const [prefix, loaders] of areas) {
    // A prefix only (/admin.csv and /administrator load the console too): loading more is harmless.
    if (pathname.startsWith(prefix)) return Promise.all(loaders.map((load) => load()));
  }
  return null;
}

/** Remix's request handler, which first loads the lazy route modules a request's path can reach. */
export const createRequestHandler: typeof remixRequestHandler = (build, mode) => {
  const handle = remixRequestHandler(build, mode);
  return async (request, context) => {
    await loadLazyRoutes(new URL(request.url).pathname);
    return handle(request, context);
  };
};
