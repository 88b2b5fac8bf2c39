import { Outlet } from "react-router";
import { useAuth } from "../../auth/auth-context.ts";
import { Footer } from "../../components/footer.tsx";
import { StreamProvider } from "../../stream/stream-provider.tsx";
import { DesktopHeader } from "./desktop-header.tsx";
import { MobileBottomBar } from "./mobile-bottom-bar.tsx";
import { MobileHeader } from "./mobile-header.tsx";

/**
 * Unread notifications feed the bell's badge; the notifications issue brings
 * GET /notifications, until then nothing is unread and no badge shows.
 */
const unread_count_until_notifications = 0;

/** The signed-in frame of every /user page; RequireAuth above it guarantees a user. */
export function UserShell() {
  const { user, token } = useAuth();
  if (user === null || token === null) {
    throw new Error("UserShell rendered without a signed-in user");
  }
  const unreadCount = unread_count_until_notifications;
  return (
    <StreamProvider token={token}>
      <div className="flex min-h-dvh flex-col">
        <DesktopHeader user={user} unreadCount={unreadCount} />
        <MobileHeader user={user} unreadCount={unreadCount} />
        <main
          id="main"
          className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8"
        >
          <Outlet />
        </main>
        <Footer />
        <div aria-hidden="true" className="h-16 md:hidden" />
        <MobileBottomBar />
      </div>
    </StreamProvider>
  );
}
