import { describe, expect, it } from "vitest";
import {
  type AfterPaintOptions,
  deferScripts,
  MODULE_AFTER_PAINT_TYPE,
  PAGES_HYDRATED_AFTER_PAINT,
  scriptsAfterPaint,
} from "./scripts-after-paint.server";

const OPTIONS = { nonce: "N0nce==", fetches: ["/assets/common-x.si.json"] };

/** deferScripts on text, as text. */
const defer = (html: string, options: AfterPaintOptions = OPTIONS) =>
  deferScripts(Buffer.from(html), options).toString("utf8");

async function through(chunks: Buffer[]): Promise<string> {
  const stream = scriptsAfterPaint(OPTIONS);
  const out: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => stream.on("end", resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await done;
  return Buffer.concat(out).toString("utf8");
}

// The shape React Router's <Links>/<Scripts> write (modulepreloads in <head>, the
// module script near the end of <body>), then streamed data after the shell.
const SHELL =
  '<html><head><title>බෝඩිම தங்குமிடம்</title><link rel="modulepreload" href="/assets/entry.js" nonce="N0nce=="/>' +
  '<link rel="modulepreload" href="/assets/root.js" nonce="N0nce=="/></head><body><p>කාමර</p>' +
  '<script nonce="N0nce==">window.__ctx={};</script>' +
  '<script nonce="N0nce==" type="module" async="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>';
const REST = '<div hidden id="S:0"><script nonce="N0nce==">$RC("B:0","S:0")</script></div></body></html>';

describe("deferScripts", () => {
  it("with data saver, drops the module preloads and the module script and adds no boot script (ADR 090)", () => {
    const out = defer(SHELL + REST, { ...OPTIONS, scriptless: true });
    expect(out).not.toContain("modulepreload");
    expect(out).not.toContain("/assets/root.js");
    expect(out).not.toContain("(function(m,f)");
    expect(out).toContain("<p>කාමර</p>");
    expect(out).toContain(REST);
  });

  it("drops the module preloads, makes the module script inert and puts the boot script after it", () => {
    const out = defer(SHELL);
    expect(out).not.toContain('rel="modulepreload"');
    expect(out).not.toMatch(/<script[^>]*type="module"/);
    expect(out).toContain(
      `<script nonce="N0nce==" type="${MODULE_AFTER_PAINT_TYPE}">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script><script nonce="N0nce==">(function(m,f){`,
    );
    expect(out.endsWith(`})(["/assets/entry.js","/assets/root.js"],["/assets/common-x.si.json"])</script>`)).toBe(true);
    // The page itself is untouched.
    expect(out).toContain("<title>බෝඩිම தங்குமிடம்</title>");
    expect(out).toContain('<script nonce="N0nce==">window.__ctx={};</script>');
  });

  it("leaves a page without an inline module script as it is", () => {
    const text = '<script nonce="x">a()</script><p>type=&quot;module&quot;</p>';
    expect(defer(text)).toBe(text);
    const page = '<head><link rel="modulepreload" href="/a.js"/></head><script type="module" src="/a.js"></script>';
    expect(defer(page)).toBe(page);
  });

  it("escapes '<' in the lists, so a file name can never close the script", () => {
    const out = defer(SHELL, { nonce: "n", fetches: ["/a</script><script>alert(1)//.json"] });
    expect(out).not.toContain("</script><script>alert(1)");
  });
});

describe("scriptsAfterPaint", () => {
  const expected = defer(SHELL) + REST;

  it("rewrites the shell and passes the streamed rest through", async () => {
    expect(await through([Buffer.from(SHELL + REST)])).toBe(expected);
  });

  it("gives the same bytes whatever the chunk boundaries, inside a tag or a Sinhala or Tamil character", async () => {
    const bytes = Buffer.from(SHELL + REST);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(expected);
    }
    expect(await through(Array.from(bytes, (byte) => Buffer.from([byte])))).toBe(expected);
  });

  it("passes a page without a module script through unchanged", async () => {
    const page = '<p>type="module" in text</p><p>ශ්‍රී</p>';
    expect(await through([Buffer.from(page.slice(0, 10)), Buffer.from(page.slice(10))])).toBe(page);
  });
});

describe("PAGES_HYDRATED_AFTER_PAINT", () => {
  it("names only routes that exist, and no page with a form to fill in", async () => {
    const { default: routes } = await import("~/routes");
    const ids = new Set<string>();
    const walk = (entries: readonly { id?: string; file: string; children?: unknown }[]) => {
      for (const entry of entries) {
        ids.add(entry.id ?? entry.file.replace(/\.tsx?$/, ""));
        if (Array.isArray(entry.children)) walk(entry.children);
      }
    };
    walk(routes);
    for (const id of PAGES_HYDRATED_AFTER_PAINT) expect(ids, id).toContain(id);
    for (const form of ["routes/login", "routes/signup", "routes/contact", "routes/listing.report"])
      expect(PAGES_HYDRATED_AFTER_PAINT.has(form), form).toBe(false);
  });
});
