import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { AppProviders } from "../src/app/app-providers.tsx";
import { createQueryClient } from "../src/app/query-client.ts";
import { routes } from "../src/app/routes.tsx";
import { resolveLazyRoutes } from "../src/components/lazy-page.tsx";
import { type FakeRoutes, installFakeApi } from "./fake-api.ts";
import { installFakeStream } from "./fake-stream.ts";

/**
 * The production route table with its lazy pages already loaded: a test renders the page at
 * once, as the browser does once the page's chunk has arrived (lazy-page.test.tsx covers the
 * loading itself).
 */
const loadedRoutes = await resolveLazyRoutes(routes);

/** The whole app (same providers and route table as production) at `path`. */
export function renderApp(
  path: string,
  api: FakeRoutes = {},
  streamOptions: Parameters<typeof installFakeStream>[0] = {},
) {
  const fake = installFakeApi(api);
  const stream = installFakeStream(streamOptions);
  const queryClient = createQueryClient();
  const router = createMemoryRouter(loadedRoutes, { initialEntries: [path] });
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...fake, ...view, router, user, queryClient, stream };
}

/** A toast on screen (in the Toaster's "Notifications" region). */
export function findToast(text: string) {
  return within(screen.getByRole("region", { name: "Notifications" })).findByText(text);
}

export function queryToast(text: string) {
  return within(screen.getByRole("region", { name: "Notifications" })).queryByText(text);
}

/** Puts `text` into a field in one input event (typing key by key is slow and adds nothing here). */
export async function fill(
  user: ReturnType<typeof userEvent.setup>,
  field: HTMLElement,
  text: string,
) {
  await user.click(field);
  await user.paste(text);
}
