import { readFileSync } from "node:fs";
import path from "node:path";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app_name } from "../src/brand.ts";
import { InstallAppButton } from "../src/pwa/install-app-button.tsx";
import { resetInstallPrompt } from "../src/pwa/install-prompt.ts";
import { install_hint_dismissed_key } from "../src/pwa/safari-install-hint.tsx";
import { safariPlatform } from "../src/pwa/safari-platform.ts";
import {
  applyUpdate,
  resetServiceWorkerState,
  watchForUpdates,
} from "../src/pwa/service-worker-registration.ts";
import { UpdatePrompt } from "../src/pwa/update-prompt.tsx";
import { renderApp } from "./render-app.tsx";

const userAgents = {
  iphoneSafari:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  iphoneChrome:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
  macSafari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  macChrome:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  androidChrome:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
};

const originalUserAgent = navigator.userAgent;

function useUserAgent(userAgent: string) {
  Object.defineProperty(window.navigator, "userAgent", { value: userAgent, configurable: true });
}

afterEach(() => {
  useUserAgent(originalUserAgent);
  resetInstallPrompt();
  resetServiceWorkerState();
});

/** Chromium's beforeinstallprompt, with a prompt() the test can watch. */
function offerInstallation(outcome: "accepted" | "dismissed" = "accepted") {
  const event = new Event("beforeinstallprompt", { cancelable: true }) as Event & {
    prompt: () => Promise<void>;
    userChoice: Promise<{ outcome: string }>;
  };
  const prompt = vi.fn(async () => {});
  event.prompt = prompt;
  event.userChoice = Promise.resolve({ outcome });
  act(() => {
    window.dispatchEvent(event);
  });
  return { event, prompt };
}

describe("Install App button", () => {
  it("appears only once the browser offers installation, and shows the browser's dialog", async () => {
    const user = userEvent.setup();
    render(<InstallAppButton />);
    expect(screen.queryByRole("button", { name: "Install App" })).not.toBeInTheDocument();

    const { event, prompt } = offerInstallation();
    // The browser's own mini-infobar is suppressed in favour of the button.
    expect(event.defaultPrevented).toBe(true);
    await user.click(await screen.findByRole("button", { name: "Install App" }));
    expect(prompt).toHaveBeenCalledTimes(1);
    // An offer is used once.
    expect(screen.queryByRole("button", { name: "Install App" })).not.toBeInTheDocument();
  });

  it("goes away when the app gets installed another way", async () => {
    render(<InstallAppButton />);
    offerInstallation();
    expect(await screen.findByRole("button", { name: "Install App" })).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event("appinstalled"));
    });
    expect(screen.queryByRole("button", { name: "Install App" })).not.toBeInTheDocument();
  });
});

describe("Safari install hint", () => {
  it("recognises Safari on iOS, iPadOS and macOS, and no other browser", () => {
    expect(safariPlatform(userAgents.iphoneSafari, 5)).toBe("ios");
    expect(safariPlatform(userAgents.macSafari, 0)).toBe("macos");
    // iPadOS asks for desktop pages with a Mac user agent.
    expect(safariPlatform(userAgents.macSafari, 5)).toBe("ios");
    expect(safariPlatform(userAgents.iphoneChrome, 5)).toBeNull();
    expect(safariPlatform(userAgents.macChrome, 0)).toBeNull();
    expect(safariPlatform(userAgents.androidChrome, 5)).toBeNull();
  });

  it("shows the iOS steps on the home page until Got it!, and remembers that", async () => {
    useUserAgent(userAgents.iphoneSafari);
    const first = renderApp("/");
    const hint = await screen.findByRole("region", { name: `Install ${app_name}` });
    expect(hint).toHaveTextContent("Tap Share");
    expect(hint).toHaveTextContent("Tap Add to Home Screen");
    expect(hint).toHaveTextContent("Tap Add");
    await first.user.click(screen.getByRole("button", { name: "Got it!" }));
    expect(screen.queryByRole("region", { name: `Install ${app_name}` })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(install_hint_dismissed_key)).toBe("1");

    first.unmount();
    renderApp("/");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("region", { name: `Install ${app_name}` })).not.toBeInTheDocument();
  });

  it("shows the macOS steps to Safari on a Mac", async () => {
    useUserAgent(userAgents.macSafari);
    renderApp("/");
    const hint = await screen.findByRole("region", { name: `Install ${app_name}` });
    expect(hint).toHaveTextContent("Choose File in the menu bar");
    expect(hint).toHaveTextContent("Choose Add to Dock");
  });

  it("is not shown to other browsers, nor on other pages", async () => {
    useUserAgent(userAgents.macChrome);
    const home = renderApp("/");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("button", { name: "Got it!" })).not.toBeInTheDocument();
    home.unmount();

    useUserAgent(userAgents.iphoneSafari);
    renderApp("/about");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByRole("button", { name: "Got it!" })).not.toBeInTheDocument();
  });
});

/** A registration whose new worker the test can move through its states. */
function fakeRegistration() {
  const worker = new EventTarget() as EventTarget & {
    state: string;
    postMessage: ReturnType<typeof vi.fn>;
  };
  worker.state = "installing";
  worker.postMessage = vi.fn();
  const registration = new EventTarget() as EventTarget & {
    waiting: unknown;
    installing: unknown;
  };
  registration.waiting = null;
  registration.installing = worker;
  return { worker, registration: registration as unknown as ServiceWorkerRegistration };
}

describe("update prompt", () => {
  it("offers a waiting new version and activates it only when the trader asks", async () => {
    const user = userEvent.setup();
    const container = new EventTarget() as EventTarget & { controller: unknown };
    container.controller = {};
    const { worker, registration } = fakeRegistration();
    render(<UpdatePrompt />);
    watchForUpdates(registration, container as unknown as ServiceWorkerContainer);
    act(() => {
      registration.dispatchEvent(new Event("updatefound"));
      worker.state = "installed";
      worker.dispatchEvent(new Event("statechange"));
    });
    expect(await screen.findByText(`A new version of ${app_name} is available.`)).toBeVisible();
    expect(worker.postMessage).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Reload" }));
    expect(worker.postMessage).toHaveBeenCalledWith({ type: "SKIP_WAITING" });
    expect(screen.queryByRole("button", { name: "Reload" })).not.toBeInTheDocument();
  });

  it("asks nothing on the first install (no page controlled yet)", () => {
    const container = new EventTarget() as EventTarget & { controller: unknown };
    container.controller = null;
    const { worker, registration } = fakeRegistration();
    render(<UpdatePrompt />);
    watchForUpdates(registration, container as unknown as ServiceWorkerContainer);
    act(() => {
      registration.dispatchEvent(new Event("updatefound"));
      worker.state = "installed";
      worker.dispatchEvent(new Event("statechange"));
    });
    expect(screen.queryByRole("button", { name: "Reload" })).not.toBeInTheDocument();
    applyUpdate();
    expect(worker.postMessage).not.toHaveBeenCalled();
  });
});

describe("web app manifest", () => {
  const publicFile = (file: string) => path.join(import.meta.dirname, "../public", file);

  it("names the app and lists icons that exist at their stated sizes", () => {
    const manifest = JSON.parse(readFileSync(publicFile("/manifest.webmanifest"), "utf8")) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest.name).toBe(app_name);
    expect(manifest.display).toBe("standalone");
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
      "192x192 any",
      "192x192 maskable",
      "512x512 any",
      "512x512 maskable",
    ]);
    for (const icon of manifest.icons) {
      const png = readFileSync(publicFile(icon.src));
      // PNG signature, then the IHDR chunk's width and height.
      expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
      const [width, height] = icon.sizes.split("x").map(Number);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([width, height]);
    }
  });
});
