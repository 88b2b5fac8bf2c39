import { uiMessages } from "@tp/domain/messages";
import { useAuth } from "../auth/auth-context.ts";
import { ButtonLink } from "../components/button.tsx";
import { DocumentTitle } from "../components/document-title.tsx";
import { paths } from "../paths.ts";

/** SPEC §2: "Page Not Found", linking to the dashboard when signed in, else home. */
export function NotFoundPage() {
  const { user } = useAuth();
  return (
    <div className="flex flex-1 flex-col items-center justify-center px-4 py-20 text-center">
      <DocumentTitle title={uiMessages.pageNotFound} />
      <p className="text-6xl font-extrabold tracking-tight text-brand-600 dark:text-brand-400">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">
        {uiMessages.pageNotFound}
      </h1>
      <p className="mt-2 max-w-md text-slate-600 dark:text-slate-400">
        The page you are looking for does not exist or has moved.
      </p>
      {user ? (
        <ButtonLink to={paths.user.dashboard} size="lg" className="mt-8">
          Go to dashboard
        </ButtonLink>
      ) : (
        <ButtonLink to={paths.home} size="lg" className="mt-8">
          Go to home
        </ButtonLink>
      )}
    </div>
  );
}
