/**
 * The architecture check (`npm run check:architecture`, part of `npm test`): imports flow
 * domain ← server and domain ← web, never back, never between server and web; the server's
 * modules form no cycles; the web app's features do not import each other's internals.
 * See docs/architecture.md for the picture these rules keep true.
 */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "A cycle makes two modules one: neither can change or be tested alone.",
      from: { path: "^(domain|server|web)/src" },
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "domain/ is platform-neutral: it imports no server, web or I/O code.",
      from: { path: "^domain/src" },
      to: { path: "^(server|web|e2e|bench)/" },
    },
    {
      name: "server-not-web",
      severity: "error",
      comment: "The server and the web app share code only through domain/.",
      from: { path: "^server/src" },
      to: { path: "^(web|e2e|bench)/" },
    },
    {
      name: "web-not-server",
      severity: "error",
      comment: "The server and the web app share code only through domain/.",
      from: { path: "^web/src" },
      to: { path: "^(server|e2e|bench)/" },
    },
    {
      name: "server-not-testing",
      severity: "error",
      comment: "Test support (server/src/testing) is for tests, not for the running platform.",
      from: { path: "^server/src", pathNot: "^server/src/testing/" },
      to: { path: "^server/src/testing/" },
    },
    // The web app: shared layers below, features above, app/ on top (docs/architecture.md).
    {
      name: "web-shared-imports-no-feature",
      severity: "error",
      comment:
        "api/, theme/, components/, auth/, stream/ and shell/ are shared: features build on them, never the reverse.",
      from: { path: "^web/src/(api|theme|components|auth|stream|shell)/" },
      to: {
        path: "^web/src/(admin|engagement|funding|market-info|pwa|responsible-trading|routes|app)/",
      },
    },
    {
      name: "web-feature-isolation",
      severity: "error",
      comment: "A feature never imports another feature's internals, the trader pages or the app.",
      from: { path: "^web/src/(admin|engagement|funding|market-info|pwa|responsible-trading)/" },
      to: {
        path: "^web/src/(admin|engagement|funding|market-info|pwa|responsible-trading|routes|app)/",
        pathNot: "^web/src/$1/",
      },
    },
    {
      name: "web-route-areas-apart",
      severity: "error",
      comment:
        "Trader page areas (routes/dashboard, routes/funding, …) do not import each other, the back office or the app.",
      from: { path: "^web/src/routes/([^/]+)/" },
      to: { path: "^web/src/(routes|admin|app)/", pathNot: "^web/src/routes/$1/" },
    },
    {
      name: "web-app-on-top",
      severity: "error",
      comment: "app/ composes the features; only main.tsx imports it.",
      from: { path: "^web/src/", pathNot: "^web/src/(app/|main\\.tsx$)" },
      to: { path: "^web/src/app/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
