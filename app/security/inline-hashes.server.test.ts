import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MODULE_AFTER_PAINT_TYPE } from "~/lib/scripts-after-paint.server";
import { inlineHashes } from "./inline-hashes.server";

const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inline hashes for a cached page's CSP", () => {
  it("hashes every inline script and style exactly as written", () => {
    const html =
      `<html><head><style nonce="x">body{color:red}</style></head><body>` +
      `<script nonce="abc">window.__ctx = {"a":1};</script>` +
      `<script type="module" nonce="abc">import "/assets/a.js";\n</script></body></html>`;
    expect(inlineHashes(html)).toEqual({
      scripts: [hash(`window.__ctx = {"a":1};`), hash(`import "/assets/a.js";\n`)],
      styles: [hash("body{color:red}")],
    });
  });

  it("leaves out external scripts and data blocks (JSON-LD never runs)", () => {
    const html = `<script src="/assets/a.js"></script><script type="application/ld+json">{"@type":"Thing"}</script>`;
    expect(inlineHashes(html)).toEqual({ scripts: [], styles: [] });
  });

  it("hashes the module script held back until the first paint: the boot script runs its text (ADR 035)", () => {
    const html = `<script type="${MODULE_AFTER_PAINT_TYPE}">import "/assets/a.js";</script>`;
    expect(inlineHashes(html).scripts).toEqual([hash(`import "/assets/a.js";`)]);
  });

  it("hashes the page's bytes as the browser does (Sinhala and Tamil included)", () => {
    const html = `<script>window.d = "බෝඩිම தங்குமிடம்";</script><style>p::after{content:"ශ්‍රී"}</style>`;
    expect(inlineHashes(Buffer.from(html))).toEqual({
      scripts: [hash(`window.d = "බෝඩිම தங்குமிடம்";`)],
      styles: [hash(`p::after{content:"ශ්‍රී"}`)],
    });
    expect(inlineHashes(html)).toEqual(inlineHashes(Buffer.from(html)));
  });

  it("reads an element to its own end tag: a '<style' in a script's text is no style, and '<scripts>' is no script", () => {
    const html = `<scripts>x</scripts><script>a("<style>")</script ><style>b{}</style>`;
    expect(inlineHashes(html)).toEqual({ scripts: [hash(`a("<style>")`)], styles: [hash("b{}")] });
  });

  it("lists a repeated script once", () => {
    const html = `<script>a()</script><script>a()</script>`;
    expect(inlineHashes(html).scripts).toEqual([hash("a()")]);
  });

  it("does not mistake escaped text for a script", () => {
    const html = `<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><input value="&lt;script&gt;x()&lt;/script&gt;">`;
    expect(inlineHashes(html)).toEqual({ scripts: [], styles: [] });
  });
});
