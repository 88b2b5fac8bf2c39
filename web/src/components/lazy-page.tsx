import type { ReactElement } from "react";
import type { RouteObject } from "react-router";

/**
 * A route whose page is its own chunk, fetched the first time the route matches: a visitor
 * to `/` downloads neither the trading screens nor the back office (issue 13 item 8). The
 * router waits for the chunk before it leaves the previous page, so nothing half-drawn shows.
 *
 *   { path: paths.about, lazy: lazyPage(() => import("../routes/about/about-page.tsx"), (m) => <m.AboutPage />) },
 */
export function lazyPage<Module>(
  load: () => Promise<Module>,
  render: (module: Module) => ReactElement,
): NonNullable<RouteObject["lazy"]> {
  return async () => ({ element: render(await load()) });
}

/**
 * The same route table with every lazy route loaded and put in place: for the tests'
 * memory router, which then renders at once as the browser does after the chunk arrived.
 */
export async function resolveLazyRoutes(routes: readonly RouteObject[]): Promise<RouteObject[]> {
  return Promise.all(
    routes.map(async (route) => {
      const { lazy, children, ...rest } = route;
      const loaded = typeof lazy === "function" ? await lazy() : {};
      const resolved = { ...rest, ...loaded } as RouteObject;
      if (children) resolved.children = await resolveLazyRoutes(children);
      return resolved;
    }),
  );
}
