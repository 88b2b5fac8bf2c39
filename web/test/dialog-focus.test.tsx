import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Modal } from "../src/components/modal.tsx";

/** A page with a button that opens a dialog, and a dialog that can open a second one over it. */
function Page({ dismissible = true }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open ? (
        <Modal
          title="Outer"
          dismissible={dismissible}
          onClose={() => setOpen(false)}
          footer={
            <button type="button" onClick={() => setInner(true)}>
              Check
            </button>
          }
        >
          <input aria-label="Field" data-autofocus />
        </Modal>
      ) : null}
      {inner ? (
        <Modal title="Inner" onClose={() => setInner(false)}>
          <button type="button">Inner action</button>
        </Modal>
      ) : null}
    </>
  );
}

/**
 * Issue 13 item 7, keyboard: a dialog takes focus, keeps Tab inside, closes on Escape and
 * gives focus back to the control that opened it; a dialog over a dialog takes the keys
 * until it closes.
 */
describe("dialog focus (useDialogFocus through Modal)", () => {
  it("moves focus in, keeps Tab inside both ways, closes on Escape and restores focus", async () => {
    const user = userEvent.setup();
    render(<Page />);
    const opener = screen.getByRole("button", { name: "Open" });
    await user.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Outer" });
    const field = screen.getByRole("textbox", { name: "Field" });
    expect(field).toHaveFocus();

    // Field → Close (header comes first in the panel: Close, Field, Check) → wraps.
    const close = screen.getByRole("button", { name: "Close" });
    const check = screen.getByRole("button", { name: "Check" });
    await user.tab();
    expect(check).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(check).toHaveFocus();
    for (let press = 0; press < 6; press += 1) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(opener).toHaveFocus();
  });

  it("a dialog that must not be dismissed ignores Escape", async () => {
    const user = userEvent.setup();
    render(<Page dismissible={false} />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    await user.keyboard("{Escape}");
    expect(screen.getByRole("dialog", { name: "Outer" })).toBeInTheDocument();
  });

  it("a dialog over a dialog: Escape closes only the top one, and focus returns into the first", async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole("button", { name: "Open" }));
    const check = screen.getByRole("button", { name: "Check" });
    await user.click(check);
    const inner = screen.getByRole("dialog", { name: "Inner" });
    await user.tab();
    expect(inner.contains(document.activeElement)).toBe(true);

    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog", { name: "Inner" })).toBeNull();
    expect(screen.getByRole("dialog", { name: "Outer" })).toBeInTheDocument();
    expect(check).toHaveFocus();
  });
});
