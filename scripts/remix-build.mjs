// `remix build` with a server build that splits (decision 237). The classic compiler bundles the server
// into one file, so code reached only through a dynamic import() (React's server renderer, the age
// verifier, Sentry, libphonenumber, each language's messages) is still parsed at every start-up. Here the
// compiler's esbuild gets `splitting`: each dynamic import becomes its own module under build/chunks,
// which wrangler uploads beside the entry (wrangler.toml `rules`, `find_additional_modules`) and workerd
// compiles only when a request first imports it. The compiler has no option for this, so its `esbuild`
// is swapped for one whose `context()` adds it to the server build's options only.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";

const require = createRequire(import.meta.url);
const remixDev = dirname(require.resolve("@remix-run/dev/package.json"));
const esbuildPath = require.resolve("esbuild", { paths: [remixDev] });
const esbuild = require(esbuildPath);

/**
 * The server build's react-dom: react-router-dom imports the browser's react-dom (209 KiB, compiled at
 * every start-up) only to read `flushSync`, which it calls in the browser's navigations, never while
 * rendering on the server. Nothing else on the server imports it (React's server renderer is
 * react-dom/server, a module of its own).
 */
const serverReactDom = {
  name: "server-react-dom",
  setup(build) {
    build.onResolve({ filter: /^react-dom$/ }, () => ({ path: "react-dom", namespace: "server-react-dom" }));
    build.onLoad({ filter: /.*/, namespace: "server-react-dom" }, () => ({
      contents: "export function flushSync(fn) { return fn(); }",
      loader: "js",
    }));
  },
};

/**
 * Route areas whose modules load on first use (decision 242); every route in app/routes/<area> has a URL
 * under /<area> (tests/unit/routes.test.ts).
 */
const LAZY_AREAS = ["admin", "dev"];
const appDir = resolve(import.meta.dirname, "../app");
/** A route module's export names, as Remix's compiler reads them (esbuild's metafile of the file alone). */
function exportsOf(file) {
  const { metafile } = esbuild.buildSync({
    entryPoints: [file],
    bundle: false,
    metafile: true,
    write: false,
    format: "esm",
    outdir: "out", // nothing is written: only the metafile's names
    logLevel: "silent",
  });
  return Object.values(metafile.outputs)[0].exports;
}

/**
 * The stand-in for a lazy route module: the same exports, the module itself behind a dynamic import()
 * (its own chunk). The loader and action wait for it; everything React or Remix calls synchronously
 * (component, error boundary, meta, links, headers) uses it as app/lib/lazy-routes.server.ts loaded it
 * before Remix ran. Other exports (`handle`, the console's `area`) are live bindings, set when it is in.
 */
function standIn(file, prefix) {
  const names = exportsOf(file);
  const has = (n) => names.includes(n);
  const calls = ["meta", "links", "headers"];
  const components = { default: "export default function LazyRoute", ErrorBoundary: "export function ErrorBoundary" };
  const values = names.filter((n) => !["loader", "action", ...calls, ...Object.keys(components)].includes(n));
  return [
    `import { createElement } from "react";`,
    `import { lazyRoute } from ${JSON.stringify(join(appDir, "lib/lazy-routes.server.ts"))};`,
    ...values.map((n) => `export let ${n};`),
    `const route = lazyRoute(${JSON.stringify(prefix)}, ${JSON.stringify(relative(appDir, file))}, () => import(${JSON.stringify(file)}), (m) => { ${values.map((n) => `${n} = m.${n};`).join(" ")} });`,
    // Called as the module's own once it is in (a loader that throws at once still throws at once).
    ...["loader", "action"]
      .filter(has)
      .map(
        (n) =>
          `export const ${n} = (args) => route.loaded() ? route.get().${n}(args) : route.load().then((m) => m.${n}(args));`,
      ),
    ...calls.filter(has).map((n) => `export const ${n} = (...args) => route.get().${n}(...args);`),
    ...Object.entries(components)
      .filter(([n]) => has(n))
      .map(([n, head]) => `${head}(props) { return createElement(route.get().${n}, props); }`),
  ].join("\n");
}

/**
 * The server build's entry imports the lazy areas' route modules as stand-ins (decision 242). The
 * stand-in's own import() of the module goes through Remix's route plugin as any route module does.
 */
const lazyRoutes = {
  name: "lazy-routes",
  setup(build) {
    build.onResolve({ filter: /^\.\/routes\// }, (args) => {
      if (args.namespace !== "server-entry-module") return undefined;
      const area = args.path.split("/")[2];
      if (!LAZY_AREAS.includes(area)) return undefined;
      return { path: resolve(args.resolveDir, args.path), namespace: "lazy-route", pluginData: { prefix: `/${area}` } };
    });
    build.onLoad({ filter: /.*/, namespace: "lazy-route" }, (args) => ({
      contents: standIn(args.path, args.pluginData.prefix),
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * CommonJS packages the app imports, each seen through one ES module. esbuild gives every importing
 * module its own copy of a CommonJS module's exports (`__toESM`: a getter per export), and about 200 of
 * the server build's modules import React, its JSX runtime or Remix's: thousands of getters defined at
 * every start-up. Through one module that names the exports once, each importer binds to it directly.
 */
const SHARED_COMMONJS = ["react", "react/jsx-runtime", "@remix-run/cloudflare"];
const sharedCommonJs = {
  name: "shared-commonjs",
  setup(build) {
    const filter = new RegExp(`^(${SHARED_COMMONJS.map((p) => p.replace(/[/.]/g, "\\$&")).join("|")})$`);
    build.onResolve({ filter }, (args) => {
      // require() of them (inside other CommonJS packages) stays as it is.
      if (args.kind !== "import-statement" && args.kind !== "dynamic-import") return undefined;
      if (args.pluginData === "shared-commonjs") return undefined;
      return { path: args.path, namespace: "shared-commonjs" };
    });
    build.onLoad({ filter: /.*/, namespace: "shared-commonjs" }, async (args) => {
      // The file esbuild itself picks (the build's conditions and main fields), read by Node for its exports.
      const { path: file } = await build.resolve(args.path, {
        kind: "import-statement",
        resolveDir: appDir,
        pluginData: "shared-commonjs",
      });
      if (/^\s*(import|export)\b/m.test(readFileSync(file, "utf8")))
        throw new Error(`${args.path} is an ES module now: drop it from SHARED_COMMONJS`);
      const names = Object.keys(require(file)).filter((n) => n !== "default" && /^[A-Za-z_$][\w$]*$/.test(n));
      return {
        contents: [
          // esbuild's own rule for a default import: the exports object, or `default` of a transpiled module.
          `const m = require(${JSON.stringify(file)});`,
          "export default m.__esModule ? m.default : m;",
          `export const { ${names.join(", ")} } = m;`,
        ].join("\n"),
        resolveDir: dirname(file),
        loader: "js",
      };
    });
  },
};

/** The server build's options (one output file, build/index.js) turned into a split build into build/. */
export function splitServer(options) {
  if (!options.outfile?.endsWith(join("build", "index.js"))) return options;
  const { outfile, plugins, ...rest } = options;
  return {
    ...rest,
    plugins: [serverReactDom, sharedCommonJs, lazyRoutes, ...plugins],
    outdir: dirname(outfile),
    entryNames: "index",
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
  };
}

/**
 * esbuild writes a chunk's import with the build's public path (/build/, which the server build needs for
 * its CSS URLs): made relative, as a module's import is resolved from the importing module.
 */
function relativeChunks(result) {
  const outputFiles = result.outputFiles.map((file) => {
    if (!file.path.endsWith(".js")) return file;
    const prefix = dirname(file.path).endsWith("chunks") ? "./" : "./chunks/";
    let text = file.text.replace(/(from |import\(|import )"\/build\/chunks\//g, `$1"${prefix}`);
    // wrangler minifies the entry it bundles, not the modules it uploads beside it.
    if (prefix === "./") text = esbuild.transformSync(text, { format: "esm", minify: true, target: "es2022" }).code;
    return { path: file.path, hash: file.hash, text, contents: new TextEncoder().encode(text) };
  });
  return { ...result, outputFiles };
}

require.cache[esbuildPath] = {
  id: esbuildPath,
  filename: esbuildPath,
  loaded: true,
  exports: {
    ...esbuild,
    context: async (options) => {
      const context = await esbuild.context(splitServer(options));
      if (options === splitServer(options)) return context;
      return { ...context, rebuild: async () => relativeChunks(await context.rebuild()) };
    },
  },
};
// A chunk left by an earlier build would be uploaded with the Worker.
rmSync("build/chunks", { recursive: true, force: true });
// The compiler creates the directory of build/index.js only.
mkdirSync("build/chunks", { recursive: true });
// As the remix command does: the compiler's workers keep the process alive otherwise.
require(join(remixDev, "dist/cli/run.js"))
  .run(["build", ...process.argv.slice(2)])
  .then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
