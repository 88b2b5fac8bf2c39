import { screen, waitFor } from "@testing-library/react";
import type { UserView } from "@tp/domain/api";
import { fundingMessages as m, type VerificationView } from "@tp/domain/funding";
import { describe, expect, it } from "vitest";
import { failure, storeSession, success, trader } from "./fake-api.ts";
import { fileOf, pdfBytes, pngBytes, webpBytes } from "./funding-fixtures.ts";
import { findToast, renderApp } from "./render-app.tsx";

function verification(overrides: Partial<VerificationView> = {}): VerificationView {
  return {
    id: 3,
    id_type: "passport",
    status: "pending",
    content_type: "application/pdf",
    size_bytes: 2048,
    created_at: "2026-01-15T12:00:00.000Z",
    reviewed_at: null,
    rejection_reason: null,
    ...overrides,
  };
}

function renderSecurity(
  list: { kyc_verified_at: string | null; data: VerificationView[] },
  routes: Parameters<typeof renderApp>[1] = {},
  user: UserView = trader,
) {
  storeSession("token-123", user);
  return renderApp("/user/security", {
    "GET /user": success({ user }),
    "GET /verifications": success(list),
    "POST /upload-verification": {
      status: 201,
      body: { status: "success", message: m.verificationUploaded, data: {} },
    },
    ...routes,
  });
}

const none = { kyc_verified_at: null, data: [] };

describe("security: ID verification", () => {
  it("uploads ID type, file and accept_terms=1 as multipart", async () => {
    const view = renderSecurity(none);
    expect(await screen.findByTestId("verification-status")).toHaveTextContent("Not verified");
    const select = screen.getByLabelText("ID type");
    expect([...(select as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      "",
      "passport",
      "national_id",
      "drivers_license",
    ]);
    await view.user.selectOptions(select, "national_id");
    await view.user.upload(
      screen.getByLabelText("ID document"),
      fileOf(pdfBytes, "id.pdf", "application/pdf"),
    );
    await view.user.click(screen.getByRole("checkbox"));
    await view.user.click(screen.getByRole("button", { name: "Upload documents" }));

    expect(await findToast(m.verificationUploaded)).toBeInTheDocument();
    const form = view.callsTo("POST /upload-verification")[0]?.form;
    expect(form?.get("id_type")).toBe("national_id");
    expect(form?.get("accept_terms")).toBe("1");
    expect((form?.get("file") as File | undefined)?.name).toBe("id.pdf");
    // The status is asked for again after the upload.
    await waitFor(() => expect(view.callsTo("GET /verifications").length).toBeGreaterThan(1));
  });

  it('"Please accept the terms first" without the terms; no call', async () => {
    const view = renderSecurity(none);
    await view.user.upload(
      await screen.findByLabelText("ID document"),
      fileOf(pngBytes, "id.png", "image/png"),
    );
    await view.user.click(screen.getByRole("button", { name: "Upload documents" }));
    expect(await findToast(m.acceptTermsFirst)).toBeInTheDocument();
    expect(screen.getByRole("checkbox")).toHaveAccessibleDescription(m.acceptTermsFirst);
    expect(view.callsTo("POST /upload-verification")).toHaveLength(0);
  });

  it("needs a JPG, PNG or PDF by content: a WebP or a disguised file is refused", async () => {
    const view = renderSecurity(none);
    const input = await screen.findByLabelText("ID document");
    await view.user.click(screen.getByRole("checkbox"));
    await view.user.click(screen.getByRole("button", { name: "Upload documents" }));
    await waitFor(() => expect(input).toHaveAccessibleDescription(/Please choose a file/));

    await view.user.upload(input, fileOf(webpBytes, "id.png", "image/png"));
    await view.user.click(screen.getByRole("button", { name: "Upload documents" }));
    await waitFor(() =>
      expect(input).toHaveAccessibleDescription(/must be a JPG, JPEG, PNG or PDF/),
    );
    expect(view.callsTo("POST /upload-verification")).toHaveLength(0);
  });

  it("refuses a file over 10 MB before sending it", async () => {
    const view = renderSecurity(none);
    const input = await screen.findByLabelText("ID document");
    const big = new File([new Uint8Array(pngBytes), new Uint8Array(10 * 1024 * 1024)], "big.png", {
      type: "image/png",
    });
    await view.user.upload(input, big);
    await view.user.click(screen.getByRole("checkbox"));
    await view.user.click(screen.getByRole("button", { name: "Upload documents" }));
    await waitFor(() => expect(input).toHaveAccessibleDescription(/larger than 10 MB/));
    expect(view.callsTo("POST /upload-verification")).toHaveLength(0);
  });

  it('"Upload failed" or the server\'s message', async () => {
    let reply = failure(500, "Internal Server Error");
    const view = renderSecurity(none, { "POST /upload-verification": () => reply });
    await view.user.upload(
      await screen.findByLabelText("ID document"),
      fileOf(pngBytes, "id.png", "image/png"),
    );
    await view.user.click(screen.getByRole("checkbox"));
    await view.user.click(screen.getByRole("button", { name: "Upload documents" }));
    expect(await findToast(m.verificationFailed)).toBeInTheDocument();

    reply = failure(409, m.identityAlreadyPending);
    await view.user.click(screen.getByRole("button", { name: "Upload documents" }));
    expect(await findToast(m.identityAlreadyPending)).toBeInTheDocument();
  });

  it("shows a pending document as Pending review, without the form", async () => {
    renderSecurity({ kyc_verified_at: null, data: [verification()] });
    expect(await screen.findByText("Pending review")).toBeInTheDocument();
    expect(screen.getByText(/Your Passport, uploaded on/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upload documents" })).not.toBeInTheDocument();
  });

  it("shows Approved once the identity is verified, without the form", async () => {
    const verified = {
      ...trader,
      account: { ...trader.account, kyc_verified_at: "2026-01-16T00:00:00.000Z" },
    };
    renderSecurity(
      {
        kyc_verified_at: "2026-01-16T00:00:00.000Z",
        data: [verification({ status: "approved" })],
      },
      {},
      verified,
    );
    expect(await screen.findByText("Approved")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upload documents" })).not.toBeInTheDocument();
  });

  it("shows a rejection with its reason and offers the form again", async () => {
    renderSecurity({
      kyc_verified_at: null,
      data: [verification({ status: "rejected", rejection_reason: "The photo is blurred" })],
    });
    expect(await screen.findByText("Rejected")).toBeInTheDocument();
    expect(screen.getByText(/The photo is blurred/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Upload documents" })).toBeInTheDocument();
  });
});
