import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { InstallAppButton } from "./pwa/install-app-button.tsx";
import { captureInstallPrompt } from "./pwa/install-prompt.ts";
import { registerServiceWorker } from "./pwa/service-worker-registration.ts";
import { UpdatePrompt } from "./pwa/update-prompt.tsx";
import "./styles.css";

// Before the first render: the browser may offer installation right away.
captureInstallPrompt();

const container = document.getElementById("root");
if (container === null) throw new Error("index.html has no #root element");

createRoot(container).render(
  <StrictMode>
    <App />
    <InstallAppButton />
    <UpdatePrompt />
  </StrictMode>,
);

// Production only: the dev server serves modules a worker must not cache (and has no /sw.js).
if (import.meta.env.PROD) {
  window.addEventListener("load", () => {
    void registerServiceWorker();
  });
}
