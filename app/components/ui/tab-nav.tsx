import type { ReactNode } from "react";
import { NavLink, Outlet, useLocation } from "react-router";

/** `alsoUnder`: a path prefix whose pages count as this tab too (a list and its detail pages). */
export type Tab = { to: string; label: string; end?: boolean; alsoUnder?: string };

const tabClasses = (active: boolean) =>
  `inline-flex min-h-11 items-center rounded-lg px-4 font-semibold ${active ? "bg-brand-700 text-white" : "text-slate-800 hover:bg-slate-100"}`;

/** A section's sub-pages as tabs (the current one marked by aria-current and colour). */
function TabNav({ label, tabs, className = "" }: { label: string; tabs: Tab[]; className?: string }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label={label} className={className}>
      <ul className="flex flex-wrap gap-2">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end={tab.end}
              className={({ isActive }) =>
                tabClasses(isActive || (!!tab.alsoUnder && pathname.startsWith(tab.alsoUnder)))
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

type TabbedLayoutProps = {
  heading: ReactNode;
  /** The tabs' name for screen readers. */
  label: string;
  tabs: Tab[];
  /** Notices between the tabs and the current tab's page. */
  children?: ReactNode;
};

/** The layout of a signed-in area (My Ads, admin): its heading, its tabs, then the current tab's page. */
export function TabbedLayout({ heading, label, tabs, children }: TabbedLayoutProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold">{heading}</h1>
      <TabNav label={label} className="mt-4" tabs={tabs} />
      {children}
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
