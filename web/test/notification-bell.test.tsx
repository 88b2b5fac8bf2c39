import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { NotificationBell } from "../src/app/user-shell/notification-bell.tsx";

describe("notification bell", () => {
  it("shows the red unread badge only when the count is above 0", () => {
    const { rerender } = render(
      <MemoryRouter>
        <NotificationBell unreadCount={0} />
      </MemoryRouter>,
    );
    const bell = screen.getByRole("link", { name: "Notifications" });
    expect(bell).toHaveAttribute("href", "/user/notifications");
    expect(bell).toHaveTextContent("");

    rerender(
      <MemoryRouter>
        <NotificationBell unreadCount={3} />
      </MemoryRouter>,
    );
    expect(screen.getByRole("link", { name: "Notifications, 3 unread" })).toHaveTextContent("3");
  });
});
