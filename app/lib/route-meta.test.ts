import { describe, expect, it } from "vitest";
import { cataloguePageMeta, privatePageMeta } from "./route-meta";

const root = { siteName: "Bodima", siteUrl: "https://bodima.example", locale: "en" as const };
const args = { matches: [{ loaderData: root }] as const, loaderData: {} };
const page = {
  title: "accounts.login.metaTitle",
  description: "accounts.login.metaDescription",
  path: "/login",
} as const;

describe("privatePageMeta", () => {
  it("asks search engines not to index the page, and names no other languages' versions", () => {
    const tags = privatePageMeta(page)(args);
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
    expect(tags.some((tag) => "hrefLang" in tag)).toBe(false);
  });

  it("otherwise gives the same tags as a public catalogue page", () => {
    const open = cataloguePageMeta(page)(args);
    expect(open).not.toContainEqual({ name: "robots", content: "noindex" });
    const shared = privatePageMeta(page)(args).filter((tag) => !("name" in tag && tag.name === "robots"));
    expect(shared).toEqual(expect.arrayContaining(open.filter((tag) => !("hrefLang" in tag))));
  });
});
