import { useCallback, useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { LanguageSwitcher } from "./language-switcher";
import { Avatar } from "./ui/avatar";
import { buttonClasses } from "./ui/button";
import { CloseIcon, MenuIcon, PlusIcon, SearchIcon } from "./ui/icons";

export type NavItem = { to: string; label: string };
export type SiteUser = { name: string };

type MobileDrawerProps = {
  siteName: string;
  user: SiteUser | null;
  navItems: NavItem[];
  postAdHref: string;
};

const DRAWER_ID = "site-menu";
const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The menu below 1024 px. Server-rendered as a link to #site-menu, which CSS
 * :target opens, so it works without JavaScript. Once hydrated it becomes a
 * real button with a modal drawer: focus trapped, Escape closes it, and any
 * navigation closes it.
 */
export function MobileDrawer({ siteName, user, navItems, postAdHref }: MobileDrawerProps) {
  const { t } = useTranslation();
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  useEffect(() => {
    setHydrated(true);
    // Opened through the no-JavaScript link before hydration finished.
    if (window.location.hash === `#${DRAWER_ID}`) {
      history.replaceState(history.state, "", window.location.pathname + window.location.search);
      setOpen(true);
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page (location.key) closes the drawer
  useEffect(() => setOpen(false), [location.key]);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) toggleRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        close(true);
        return;
      }
      if (event.key !== "Tab" || !panelRef.current) return;
      const focusable = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !panelRef.current.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !panelRef.current.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    // Widening past the breakpoint hides the drawer; close it so the page scrolls again.
    const wide = window.matchMedia("(min-width: 1024px)");
    const onWide = () => {
      if (wide.matches) close(false);
    };
    document.addEventListener("keydown", onKeyDown);
    wide.addEventListener("change", onWide);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      wide.removeEventListener("change", onWide);
      document.body.style.overflow = previousOverflow;
    };
  }, [open, close]);

  const toggleClasses =
    "flex h-11 w-11 items-center justify-center rounded-lg text-slate-800 hover:bg-slate-100 lg:hidden";
  const linkClasses = "flex min-h-11 items-center rounded-lg px-3 font-medium hover:bg-slate-100";
  const visibility = hydrated ? (open ? "flex" : "hidden") : "hidden target:flex";

  return (
    <>
      {hydrated ? (
        <button
          ref={toggleRef}
          type="button"
          className={toggleClasses}
          aria-expanded={open}
          aria-controls={DRAWER_ID}
          aria-label={t("common.nav.openMenu")}
          onClick={() => setOpen((v) => !v)}
        >
          <MenuIcon className="h-6 w-6" />
        </button>
      ) : (
        <a href={`#${DRAWER_ID}`} className={toggleClasses} aria-label={t("common.nav.openMenu")}>
          <MenuIcon className="h-6 w-6" />
        </a>
      )}

      <div
        id={DRAWER_ID}
        role="dialog"
        aria-modal="true"
        aria-label={t("common.nav.menu")}
        className={`fixed inset-0 z-50 justify-end lg:hidden ${visibility}`}
      >
        {hydrated ? (
          <div aria-hidden="true" className="absolute inset-0 bg-slate-900/50" onClick={() => close(false)} />
        ) : (
          // Without JavaScript the drawer is the :target of its button; a link to "#" closes it.
          // biome-ignore lint/a11y/useValidAnchor: see above
          // biome-ignore lint/a11y/useAnchorContent: the backdrop is a mouse shortcut, hidden from screen readers; the close link below has a name
          <a href="#" tabIndex={-1} aria-hidden="true" className="absolute inset-0 bg-slate-900/50" />
        )}
        <div
          ref={panelRef}
          className="relative flex h-full w-full max-w-sm flex-col overflow-y-auto bg-white shadow-xl"
        >
          <div className="flex h-16 items-center justify-between border-b border-slate-200 px-4">
            <span className="text-xl font-bold text-brand-700">{siteName}</span>
            {hydrated ? (
              <button
                ref={closeRef}
                type="button"
                className="flex h-11 w-11 items-center justify-center rounded-lg hover:bg-slate-100"
                aria-label={t("common.nav.closeMenu")}
                onClick={() => close(true)}
              >
                <CloseIcon className="h-6 w-6" />
              </button>
            ) : (
              <a
                // biome-ignore lint/a11y/useValidAnchor: without JavaScript a link to "#" closes the :target drawer
                href="#"
                className="flex h-11 w-11 items-center justify-center rounded-lg hover:bg-slate-100"
                aria-label={t("common.nav.closeMenu")}
              >
                <CloseIcon className="h-6 w-6" />
              </a>
            )}
          </div>

          <nav aria-label={t("common.nav.mainNavigation")} className="px-4 py-3">
            <ul className="space-y-1">
              {navItems.map((item) => (
                <li key={item.label}>
                  <NavLink
                    to={item.to}
                    className={({ isActive }) =>
                      `${linkClasses} ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-900"}`
                    }
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>

          <LanguageSwitcher className="border-t border-slate-200 px-5 py-2" />

          <section aria-labelledby="drawer-quick-actions" className="border-t border-slate-200 px-4 py-3">
            <h2 id="drawer-quick-actions" className="px-3 text-sm font-semibold uppercase tracking-wide text-slate-600">
              {t("common.nav.quickActions")}
            </h2>
            <ul className="mt-2 space-y-1">
              <li>
                <Link to="/browse" className={`${linkClasses} gap-3 text-slate-900`}>
                  <SearchIcon className="h-5 w-5 text-brand-700" />
                  {t("common.nav.browseListings")}
                </Link>
              </li>
              <li>
                <Link to={postAdHref} className={`${linkClasses} gap-3 text-slate-900`}>
                  <PlusIcon className="h-5 w-5 text-brand-700" />
                  {t("common.nav.postNewAd")}
                </Link>
              </li>
            </ul>
          </section>

          <div className="mt-auto border-t border-slate-200 p-4">
            {user ? (
              <>
                <div className="flex items-center gap-3 rounded-lg bg-slate-50 p-3">
                  <Avatar name={user.name} />
                  <div className="min-w-0">
                    <p className="text-sm text-slate-600">{t("common.nav.signedInAs")}</p>
                    <p className="truncate font-semibold">{user.name}</p>
                  </div>
                </div>
                <Form method="post" action="/logout" className="mt-3">
                  <button type="submit" className={buttonClasses("secondary", "md", "w-full")}>
                    {t("common.nav.signOut")}
                  </button>
                </Form>
              </>
            ) : (
              <>
                <div className="rounded-lg bg-slate-50 p-3">
                  <p className="font-semibold">{t("common.nav.guestTitle", { siteName })}</p>
                  <p className="mt-1 text-sm text-slate-600">{t("common.nav.guestText")}</p>
                </div>
                <div className="mt-3 grid grid-cols-2 gap-2">
                  <Link to="/login" className={buttonClasses("secondary")}>
                    {t("common.nav.signIn")}
                  </Link>
                  <Link to="/signup" className={buttonClasses("primary")}>
                    {t("common.nav.getStarted")}
                  </Link>
                </div>
              </>
            )}
          </div>
        </div>
      </div>
    </>
  );
}
