// `remix build` with a server build that splits (decision 237). The classic compiler bundles the server
// into one file, so code reached only through a dynamic import() (React's server renderer, the age
// verifier, Sentry, libphonenumber, each language's messages) is still parsed at every start-up. Here the
// compiler's esbuild gets `splitting`: each dynamic import becomes its own module under build/chunks,
// which wrangler uploads beside the entry (wrangler.toml `rules`, `find_additional_modules`) and workerd
// compiles only when a request first imports it. The compiler has no option for this, so its `esbuild`
// is swapped for one whose `context()` adds it to the server build's options only.
import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

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

/** The server build's options (one output file, build/index.js) turned into a split build into build/. */
export function splitServer(options) {
  if (!options.outfile?.endsWith(join("build", "index.js"))) return options;
  const { outfile, plugins, ...rest } = options;
  return {
    ...rest,
    plugins: [serverReactDom, ...plugins],
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
