import { Link, NavLink } from "react-router";
import { useAuth } from "../auth/auth-context.ts";
import { app_name } from "../brand.ts";
import { ButtonLink } from "../components/button.tsx";
import { CloseIcon, MenuIcon } from "../components/icons.tsx";
import { Logo } from "../components/logo.tsx";
import { ThemeToggle } from "../components/theme-toggle.tsx";
import { useMenuOpen } from "../components/use-menu-open.ts";
import { paths } from "../paths.ts";

const links = [
  { to: paths.home, label: "Home" },
  { to: paths.about, label: "About" },
  { to: paths.contact, label: "Contact" },
  { to: paths.legalDocuments, label: "Legal" },
] as const;

const iconButton =
  "inline-flex size-10 items-center justify-center rounded-lg text-navy-100 hover:bg-white/10 hover:text-white";

export function PublicHeader() {
  const { user } = useAuth();
  // A followed link closes the menu.
  const [menuOpen, setMenuOpen] = useMenuOpen();

  const actions = user ? (
    <ButtonLink to={paths.user.dashboard} size="sm">
      Dashboard
    </ButtonLink>
  ) : (
    <>
      <ButtonLink to={paths.signIn} variant="outline-light" size="sm">
        Sign in
      </ButtonLink>
      <ButtonLink to={paths.signUp} variant="danger" size="sm">
        Register
      </ButtonLink>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-navy-950/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Link to={paths.home} className="shrink-0 rounded" aria-label={`${app_name} home`}>
          <Logo />
        </Link>
        <nav aria-label="Main" className="ml-6 hidden items-center gap-1 md:flex">
          {links.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              end
              className={({ isActive }) =>
                `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
                  isActive ? "bg-white/10 text-white" : "text-navy-200 hover:text-white"
                }`
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto hidden items-center gap-2 md:flex">
          <ThemeToggle className={iconButton} />
          {actions}
        </div>
        <div className="ml-auto flex items-center gap-1 md:hidden">
          <ThemeToggle className={iconButton} />
          <button
            type="button"
            className={iconButton}
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            aria-expanded={menuOpen}
            aria-controls="public-mobile-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      <div
        id="public-mobile-menu"
        hidden={!menuOpen}
        className="border-t border-white/10 bg-navy-950 px-4 pb-4 md:hidden"
      >
        <nav aria-label="Mobile" className="flex flex-col py-2">
          {links.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              end
              className="rounded-md px-3 py-2.5 text-sm font-medium text-navy-100 hover:bg-white/10"
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex gap-2">{actions}</div>
      </div>
    </header>
  );
}
