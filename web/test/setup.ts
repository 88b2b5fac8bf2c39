import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import toast from "react-hot-toast/headless";
import { afterEach } from "vitest";
import { resetApiClient } from "../src/api/client.ts";

// CI machines are small and shared: give findBy/waitFor room before calling a test failed.
configure({ asyncUtilTimeout: 4_000 });

// jsdom has no layout: scrolling is a no-op here (ScrollToTop calls it on every route).
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  toast.remove();
  window.localStorage.clear();
  document.documentElement.className = "";
  resetApiClient();
});
