import { act, screen, within } from "@testing-library/react";
import toast from "react-hot-toast/headless";
import { describe, expect, it } from "vitest";
import { renderApp } from "./render-app.tsx";

describe("toaster", () => {
  it("shows at most 20 toasts, dismissing the oldest", async () => {
    renderApp("/about");
    const region = within(await screen.findByRole("region", { name: "Notifications" }));
    act(() => {
      for (let index = 1; index <= 25; index += 1) toast(`Toast ${index}`);
    });
    expect(await region.findByText("Toast 25")).toBeInTheDocument();
    expect(region.getAllByText(/^Toast \d+$/)).toHaveLength(20);
    expect(region.queryByText("Toast 5")).not.toBeInTheDocument();
    expect(region.getByText("Toast 6")).toBeInTheDocument();
  });
});
