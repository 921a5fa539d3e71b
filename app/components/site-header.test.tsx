import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { SiteHeader } from "./site-header";

function render(user: { name: string } | null) {
  const Stub = createRoutesStub([{ path: "/", Component: () => <SiteHeader siteName="Bodima" user={user} /> }]);
  return renderToString(<Stub initialEntries={["/"]} />);
}

describe("SiteHeader", () => {
  it("offers Log in and Sign up and sends List Property to /login when signed out", () => {
    const html = render(null);
    expect(html).toContain(">Log in<");
    expect(html).toContain(">Sign up<");
    expect(html).toMatch(/href="\/login"[^>]*>List Property</);
    expect(html).not.toContain("Logout");
    // Without JavaScript the menu is a link that CSS :target opens.
    expect(html).toContain('href="#site-menu"');
  });

  it("shows the avatar, the name and a menu with Dashboard and Logout when signed in", () => {
    const html = render({ name: "Saman Kumara" });
    // The menu button is named by the visible name (the initial avatar is hidden
    // from assistive tech), so what people see is what screen readers announce.
    expect(html).toMatch(
      /<summary(?![^>]*aria-label)[^>]*>(?:(?!<\/summary>).)*>Saman Kumara<(?:(?!<\/summary>).)*<\/summary>/s,
    );
    expect(html).toContain(">Saman Kumara<");
    expect(html).toMatch(/href="\/dashboard"[^>]*>Dashboard</);
    expect(html).toMatch(/action="\/logout"/);
    expect(html).toContain(">Logout<");
    expect(html).toMatch(/href="\/dashboard"[^>]*>List Property</);
    expect(html).toContain(">Sign Out<");
    expect(html).not.toContain(">Log in<");
  });
});
