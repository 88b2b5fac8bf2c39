import type { UserView } from "@tp/domain/api";
import { Outlet } from "react-router";
import { useAuth } from "../../auth/auth-context.ts";
import { Footer } from "../../components/footer.tsx";
import { ActivityToast } from "../../engagement/activity-toast.tsx";
import { usePushSetup } from "../../engagement/use-push-setup.ts";
import { useUnreadCount } from "../../engagement/use-unread-count.ts";
import { RealityCheck } from "../../responsible-trading/reality-check.tsx";
import { StreamProvider } from "../../stream/stream-provider.tsx";
import { DesktopHeader } from "./desktop-header.tsx";
import { MobileBottomBar } from "./mobile-bottom-bar.tsx";
import { MobileHeader } from "./mobile-header.tsx";

/** The signed-in frame of every /user page; RequireAuth above it guarantees a user. */
export function UserShell() {
  const { user, token } = useAuth();
  if (user === null || token === null) {
    throw new Error("UserShell rendered without a signed-in user");
  }
  return (
    <StreamProvider token={token}>
      <UserFrame user={user} />
    </StreamProvider>
  );
}

/**
 * Inside the stream: the unread count feeding both bells is kept current by it. Every page
 * carries the footer and the "New Transaction" toast (SPEC §2); Web Push is set up once; the
 * reality check (issue 14) times its dialog from the session's sign-in, whatever the page.
 */
function UserFrame({ user }: { user: UserView }) {
  const unreadCount = useUnreadCount();
  usePushSetup(user.id);
  return (
    <div className="flex min-h-dvh flex-col">
      <DesktopHeader user={user} unreadCount={unreadCount} />
      <MobileHeader user={user} unreadCount={unreadCount} />
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <Outlet />
      </main>
      <Footer />
      <div aria-hidden="true" className="h-16 md:hidden" />
      <MobileBottomBar />
      <ActivityToast />
      <RealityCheck />
    </div>
  );
}
