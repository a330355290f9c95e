/** Remix classic compiler, bundling the server for workerd; wrangler bundles app/entry.worker.ts. */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  serverBuildPath: "build/index.js",
  serverConditions: ["workerd", "worker", "browser"],
  // Photon (image re-encoding) lives in the images Worker (workers/images, decision 171).
  serverDependenciesToBundle: "all",
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
