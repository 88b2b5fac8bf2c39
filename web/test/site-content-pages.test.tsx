import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { siteContent, success } from "./fake-api.ts";
import { renderApp } from "./render-app.tsx";

describe("company facts on the about page (PRODUCT.md D6)", () => {
  it("claims no founding year, licence or certification the operator has not configured", async () => {
    renderApp("/about");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("heading", { name: "Company facts" })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/licen[cs]e|certif|PCI|founded/i);
  });

  it("shows configured facts, each licence with its regulator and number", async () => {
    renderApp("/about", {
      "GET /site-content": success({
        ...siteContent,
        company: {
          ...siteContent.company,
          founded_year: 2019,
          registration: "Registered in England and Wales, company number 01234567",
          licences: [
            {
              name: "Investment firm licence",
              regulator: "Example Financial Authority",
              number: "FA-123",
              url: "https://register.example/FA-123",
            },
          ],
          certifications: [{ name: "ISO 27001", url: null }],
        },
      }),
    });
    const facts = await screen.findByRole("region", { name: "Company facts" });
    expect(facts).toHaveTextContent("Founded2019");
    expect(facts).toHaveTextContent("Example Financial Authority, licence number FA-123");
    expect(
      within(facts).getByRole("link", { name: "Check the regulator's register" }),
    ).toHaveAttribute("href", "https://register.example/FA-123");
    expect(facts).toHaveTextContent("ISO 27001");
  });
});
