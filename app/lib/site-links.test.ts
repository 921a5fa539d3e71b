import { describe, expect, it } from "vitest";
import { linkifySiteUrls } from "./site-links";

describe("linkifySiteUrls", () => {
  const site = "https://bodima.lk";

  it("links URLs on our own site and keeps the text around them", () => {
    expect(linkifySiteUrls("Reset: https://bodima.lk/reset?token=a1. Thanks", site)).toEqual([
      { text: "Reset: " },
      { text: "https://bodima.lk/reset?token=a1", href: "https://bodima.lk/reset?token=a1" },
      { text: ". Thanks" },
    ]);
  });

  it("leaves other sites, look-alike hosts and other schemes as text", () => {
    const text = "See https://evil.example/x or https://bodima.lk.evil.example/ or javascript:alert(1)";
    expect(linkifySiteUrls(text, site)).toEqual([{ text }]);
  });

  it("matches the port of a local site URL", () => {
    const parts = linkifySiteUrls("http://localhost:3000/a http://localhost:4000/b", "http://localhost:3000");
    expect(parts.filter((p) => p.href).map((p) => p.href)).toEqual(["http://localhost:3000/a"]);
  });
});
