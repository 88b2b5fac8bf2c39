import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp } from "./render-app.tsx";

describe("theme", () => {
  it("starts light, and the toggle writes the choice and the class on <html>", async () => {
    const { user } = renderApp("/about");
    const [toggle] = await screen.findAllByRole("button", { name: "Switch to dark theme" });
    expect(document.documentElement).not.toHaveClass("dark");

    await user.click(toggle!);
    expect(window.localStorage.getItem("theme")).toBe("dark");
    expect(document.documentElement).toHaveClass("dark");

    const [back] = screen.getAllByRole("button", { name: "Switch to light theme" });
    await user.click(back!);
    expect(window.localStorage.getItem("theme")).toBe("light");
    expect(document.documentElement).not.toHaveClass("dark");
  });

  it("applies a stored dark theme at start", async () => {
    window.localStorage.setItem("theme", "dark");
    renderApp("/about");
    expect(
      await screen.findAllByRole("button", { name: "Switch to light theme" }),
    ).not.toHaveLength(0);
    expect(document.documentElement).toHaveClass("dark");
  });
});
