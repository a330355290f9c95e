/** Remix classic compiler, bundling the server for workerd; wrangler bundles app/entry.worker.ts. */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
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
