import { useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { useTranslation } from "~/i18n";
import { LanguageSwitcher } from "./language-switcher";
import { MobileDrawer, type NavItem, type SiteUser } from "./mobile-drawer";
import { Avatar } from "./ui/avatar";
import { buttonClasses } from "./ui/button";
import { ChevronDownIcon } from "./ui/icons";

/** The header changes style past 10 px of scrolling. */
const SCROLL_THRESHOLD = 10;

type SiteHeaderProps = { siteName: string; user: SiteUser | null };

export function SiteHeader({ siteName, user }: SiteHeaderProps) {
  const { t } = useTranslation();
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > SCROLL_THRESHOLD);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  const listPropertyHref = user ? "/dashboard" : "/login";
  const navItems: NavItem[] = [
    { to: "/browse", label: t("common.nav.browse") },
    { to: "/shortlist", label: t("common.nav.shortlist") },
    { to: listPropertyHref, label: t("common.nav.listProperty") },
    { to: "/about", label: t("common.nav.about") },
    { to: "/contact", label: t("common.nav.contact") },
  ];

  return (
    <header
      data-scrolled={scrolled ? "true" : "false"}
      className={`sticky top-0 z-40 border-b bg-white transition-shadow ${
        scrolled ? "border-slate-200 shadow-md" : "border-transparent"
      }`}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex min-h-11 items-center text-xl font-bold text-brand-700">
          {siteName}
        </Link>

        <nav aria-label={t("common.nav.mainNavigation")} className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {navItems.map((item) => (
              <li key={item.label}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    `flex min-h-11 items-center rounded-lg px-3 font-medium hover:bg-slate-100 ${
                      isActive ? "text-brand-700 underline decoration-2 underline-offset-8" : "text-slate-800"
                    }`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="hidden items-center gap-2 lg:flex">
          <LanguageSwitcher className="text-sm" />
          {user ? (
            <UserMenu user={user} />
          ) : (
            <>
              <Link to="/login" className={buttonClasses("ghost")}>
                {t("common.nav.login")}
              </Link>
              <Link to="/signup" className={buttonClasses("primary")}>
                {t("common.nav.signup")}
              </Link>
            </>
          )}
        </div>

        <MobileDrawer siteName={siteName} user={user} navItems={navItems} postAdHref={listPropertyHref} />
      </div>
    </header>
  );
}

/** A disclosure (works without JavaScript); closes on navigation, Escape and outside clicks. */
function UserMenu({ user }: { user: SiteUser }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page (location.key) closes the menu
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (ref.current?.open && !ref.current.contains(event.target as Node)) ref.current.open = false;
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === "Escape" && ref.current?.open) {
      ref.current.open = false;
      ref.current.querySelector("summary")?.focus();
    }
  };

  return (
    <details ref={ref} className="relative" onKeyDown={onKeyDown}>
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-lg px-2 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <Avatar name={user.name} />
        <span className="max-w-40 truncate font-medium">{user.name}</span>
        <ChevronDownIcon className="h-4 w-4 text-slate-600" />
      </summary>
      <ul className="absolute right-0 mt-2 w-48 rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
        <li>
          <Link to="/dashboard" className="flex min-h-11 items-center px-4 hover:bg-slate-100">
            {t("common.nav.dashboard")}
          </Link>
        </li>
        <li>
          <Form method="post" action="/logout">
            <button type="submit" className="flex min-h-11 w-full items-center px-4 text-left hover:bg-slate-100">
              {t("common.nav.logout")}
            </button>
          </Form>
        </li>
      </ul>
    </details>
  );
}
