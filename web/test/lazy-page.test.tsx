import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AppProviders } from "../src/app/app-providers.tsx";
import { createQueryClient } from "../src/app/query-client.ts";
import { routes } from "../src/app/routes.tsx";
import { lazyPage } from "../src/components/lazy-page.tsx";
import { installFakeApi } from "./fake-api.ts";

function LoadedPage() {
  return <h1>Loaded page</h1>;
}

describe("lazy pages", () => {
  it("loads a page's module when its route is first visited and draws it", async () => {
    let loads = 0;
    const router = createMemoryRouter(
      [
        {
          path: "/",
          hydrateFallbackElement: <p>Loading</p>,
          lazy: lazyPage(
            async () => {
              loads += 1;
              return { LoadedPage };
            },
            (m) => <m.LoadedPage />,
          ),
        },
      ],
      { initialEntries: ["/"] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole("heading", { name: "Loaded page" })).toBeInTheDocument();
    expect(loads).toBe(1);
  });

  it("the production route table draws a lazy public page through its chunk", async () => {
    installFakeApi({});
    const router = createMemoryRouter(routes, { initialEntries: ["/account/sign-in"] });
    render(
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(await screen.findByRole("button", { name: /sign in/i })).toBeInTheDocument();
  });
});
