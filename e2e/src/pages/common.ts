import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** The toaster region (react-hot-toast, headless, drawn by the app). */
export function toasts(page: Page): Locator {
  return page.getByRole("region", { name: "Notifications" });
}

/** Waits until a toast with exactly this text shows. */
export async function expectToast(page: Page, text: string): Promise<void> {
  await toasts(page).getByText(text, { exact: true }).first().waitFor({ state: "visible" });
}

export async function expectVisible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: "visible" });
}

export async function expectHidden(locator: Locator): Promise<void> {
  await locator.waitFor({ state: "hidden" });
}

/** Waits until the app shows `pathname`; a failure says where the page is instead, and why it matters. */
export async function expectPath(page: Page, pathname: string, because = ""): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === pathname, { timeout: 15_000 });
  } catch {
    const at = new URL(page.url());
    throw new Error(
      `expected the page at ${pathname}${because ? ` (${because})` : ""}, but it is at ${at.pathname}${at.search}`,
    );
  }
}

export async function storedItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => window.localStorage.getItem(name), key);
}

/**
 * The error text tied to a form control: the control is marked invalid and names the error
 * element in aria-describedby, so the text is "under the field" for sighted and screen-reader
 * users alike. Empty when the control is not marked invalid.
 */
export async function fieldErrorOf(control: Locator): Promise<string> {
  if ((await control.getAttribute("aria-invalid")) !== "true") return "";
  const describedBy = (await control.getAttribute("aria-describedby")) ?? "";
  const texts: string[] = [];
  for (const id of describedBy.split(/\s+/).filter(Boolean)) {
    const element = control.page().locator(`[id="${id}"]`);
    if ((await element.count()) === 1 && (await element.isVisible())) {
      texts.push(((await element.textContent()) ?? "").trim());
    }
  }
  return texts.join(" | ");
}

/** Waits until the control shows this error (see fieldErrorOf). */
export async function expectFieldError(control: Locator, expected: string | RegExp): Promise<void> {
  const options = { timeout: 15_000, message: `the error under ${control}` };
  const error = expect.poll(() => fieldErrorOf(control), options);
  if (typeof expected === "string") await error.toBe(expected);
  else await error.toMatch(expected);
}

/** Whether the page is wider than the viewport (content cut off or scrolling sideways). */
export async function horizontalOverflow(
  page: Page,
): Promise<{ scrollWidth: number; viewport: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
}

export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, viewport } = await horizontalOverflow(page);
  expect(scrollWidth, `the page scrolls sideways at ${viewport} px`).toBeLessThanOrEqual(viewport);
}

/**
 * The element's computed background as sRGB 0-255 (Chromium reports Tailwind 4's colours in
 * oklch; a canvas converts them).
 */
export async function backgroundRgb(
  locator: Locator,
): Promise<{ red: number; green: number; blue: number }> {
  return locator.evaluate((element) => {
    const canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no 2d canvas");
    context.fillStyle = getComputedStyle(element).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [red = 0, green = 0, blue = 0] = context.getImageData(0, 0, 1, 1).data;
    return { red, green, blue };
  });
}

/** Closes every toast, so a screenshot shows the page rather than the last message. */
export async function dismissToasts(page: Page): Promise<void> {
  const buttons = toasts(page).getByRole("button", { name: "Dismiss notification" });
  while ((await buttons.count()) > 0) {
    // A toast may leave by itself between the count and the click (its time is up, or it is
    // already sliding out): the click then finds nothing stable to press, which is not a
    // failure. Without the short timeout it waited 15 s for a toast that never came. The
    // poll below is the check that none is left.
    await buttons
      .first()
      .click({ timeout: 1_000 })
      .catch(() => undefined);
  }
  await expect.poll(() => buttons.count()).toBe(0);
}

/**
 * Checks that a click at the element's centre reaches it: visible is not enough when another
 * layer (a fixed bar, an overlay) is painted on top of it.
 */
export async function expectReceivesClicks(
  locator: Locator,
  options: { soft?: boolean } = {},
): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const covering = await locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    if (hit === null || element === hit || element.contains(hit)) return null;
    const describe = (node: Element) =>
      `<${node.tagName.toLowerCase()}${node.getAttribute("aria-label") ? ` aria-label="${node.getAttribute("aria-label")}"` : ""}> "${(node.textContent ?? "").trim().slice(0, 40)}"`;
    const landmark = hit.closest("nav, header, footer, aside, [role=dialog]");
    return `${describe(hit)}${landmark && landmark !== hit ? ` inside ${describe(landmark)}` : ""}`;
  });
  const check = options.soft ? expect.soft : expect;
  check(covering, `${locator} is covered by another element`).toBeNull();
}
