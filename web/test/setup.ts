import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import toast from "react-hot-toast/headless";
import { afterEach, beforeEach } from "vitest";
import { resetApiClient } from "../src/api/client.ts";
import { resetStream } from "../src/stream/live-stream.ts";
import { installFakeStream } from "./fake-stream.ts";

// CI machines are small and shared (the web suite runs beside the server suites): give
// findBy/waitFor room before calling a test failed; a 4 s wait timed out there once.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no layout: scrolling is a no-op here (ScrollToTop calls it on every route).
window.scrollTo = () => {};

// No test opens a real socket (jsdom would try ws://localhost:3000): every test gets a fake
// live stream that connects at once; a test wanting another behaviour installs its own.
beforeEach(() => {
  installFakeStream();
});

afterEach(() => {
  cleanup();
  toast.remove();
  window.localStorage.clear();
  document.documentElement.className = "";
  resetApiClient();
  resetStream();
});
