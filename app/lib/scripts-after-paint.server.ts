import { Transform } from "node:stream";

/**
 * The type React Router's inline module script is given until the first paint
 * (ADR 035): a type the browser does not run. `inlineHashes` hashes such a
 * block like a script, because the boot script runs its text as one.
 */
export const MODULE_AFTER_PAINT_TYPE = "text/bodima-module";

/**
 * The boot script, run where React Router's module script was. Once the page
 * has painted its first content and finished loading (its first photos
 * included; at most 2 s after that paint), it hints the message files and
 * modules, then runs the module script's text as a module script. Written for
 * old phone browsers (ES5, no replaceWith); it removes itself so that hydration
 * finds the elements React rendered and nothing else.
 */
const BOOT =
  "(function(m,f){var d=document,c=d.currentScript,b=c.previousElementSibling,p=0," +
  'l=d.readyState=="complete",O=window.PerformanceObserver,t=O&&O.supportedEntryTypes;' +
  "c.parentNode.removeChild(c);" +
  'function k(h,r){var e=d.createElement("link");e.rel=r;' +
  'if(r=="preload"){e.as="fetch";e.crossOrigin="anonymous"}e.href=h;d.head.appendChild(e)}' +
  "function go(){if(!p||!l||!b)return;var o=b;b=null;requestAnimationFrame(function(){setTimeout(function(){" +
  'f.forEach(function(h){k(h,"preload")});m.forEach(function(h){k(h,"modulepreload")});' +
  'var s=d.createElement("script");s.type="module";s.nonce=o.nonce;s.textContent=o.textContent;' +
  "o.parentNode.replaceChild(s,o)},0)})}" +
  "function painted(){p=1;setTimeout(function(){l=1;go()},2000);go()}" +
  'if(t&&t.indexOf("paint")>=0)new O(function(e,o){if(e.getEntriesByName("first-contentful-paint").length){' +
  'o.disconnect();painted()}}).observe({type:"paint",buffered:true});else painted();' +
  'if(!l)addEventListener("load",function(){l=1;go()})})';

/**
 * The pages whose scripts wait for the first paint: read-only public pages,
 * where nothing is typed before hydration (React Router route ids; the page's
 * deepest route decides). Pages with forms to fill in (log in, sign up,
 * contact, the dashboard, a report) hydrate as soon as their scripts arrive,
 * so what someone types or picks never waits on, or races, a late hydration.
 */
export const PAGES_HYDRATED_AFTER_PAINT: ReadonlySet<string> = new Set([
  "routes/home",
  "browse",
  "browse-location",
  "browse-location-university",
  "browse-university",
  "browse-city",
  "routes/listing",
  "routes/about",
  "routes/privacy",
  "routes/terms",
  "routes/not-found",
]);

const MODULE_TYPE = Buffer.from(' type="module"');
const SCRIPT_OPEN = Buffer.from("<script");
const SCRIPT_END = Buffer.from("</script>");
const PRELOAD_OPEN = Buffer.from('<link rel="modulepreload"');
const HREF = /\shref="([^"]+)"/;
/** The longest pattern searched across chunk boundaries, less one byte. */
const OVERLAP = Math.max(MODULE_TYPE.length, SCRIPT_END.length) - 1;

export type AfterPaintOptions = {
  /** This response's CSP nonce, for the boot script (a cached page is served with hashes instead). */
  nonce: string | undefined;
  /** The page's message files (ADR 030), hinted beside the modules. */
  fetches: readonly string[];
  /** Data saver (ADR 090): the module preloads and the module script go, and no boot script comes. */
  scriptless?: boolean;
};

/** JSON for an inline script: a '<' can never close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

/**
 * Rewrites the start of a page, up to and including React Router's inline
 * module script: its `<link rel="modulepreload">` tags go, the module script
 * becomes inert, and the boot script follows it. Anything else is unchanged,
 * byte for byte: the page is cut and joined as bytes, and only the tags read
 * are decoded (ASCII), so a 60 KB page is neither decoded nor encoded again.
 */
export function deferScripts(head: Buffer, options: AfterPaintOptions): Buffer {
  const type = head.indexOf(MODULE_TYPE);
  const open = type === -1 ? -1 : head.lastIndexOf(SCRIPT_OPEN, type);
  const openEnd = open === -1 ? -1 : head.indexOf(">", type);
  const end = openEnd === -1 ? -1 : head.indexOf(SCRIPT_END, openEnd);
  if (end === -1) return head;
  const tag = head.toString("latin1", open, openEnd + 1);
  // An external module script, or a " type=" that is not in a <script> tag: not React Router's.
  if (tag.includes("<", 1) || /\ssrc=/.test(tag)) return head;
  const parts: Buffer[] = [];
  const modules: string[] = [];
  let from = 0;
  for (let at = head.indexOf(PRELOAD_OPEN); at !== -1 && at < open; at = head.indexOf(PRELOAD_OPEN, from)) {
    const close = head.indexOf(">", at);
    const href = HREF.exec(head.toString("latin1", at, close + 1))?.[1];
    if (href) modules.push(Buffer.from(href, "latin1").toString("utf8"));
    parts.push(head.subarray(from, at));
    from = close + 1;
  }
  parts.push(head.subarray(from, open));
  const after = end + SCRIPT_END.length;
  if (options.scriptless) {
    parts.push(head.subarray(after));
    return Buffer.concat(parts);
  }
  const inert = tag.replace(/\stype="module"(?:\s+async="")?/, ` type="${MODULE_AFTER_PAINT_TYPE}"`);
  const nonce = options.nonce === undefined ? "" : ` nonce="${options.nonce}"`;
  const boot = `<script${nonce}>${BOOT}(${scriptJson(modules)},${scriptJson(options.fetches)})</script>`;
  parts.push(Buffer.from(inert, "latin1"), head.subarray(openEnd + 1, after), Buffer.from(boot), head.subarray(after));
  return Buffer.concat(parts);
}

/**
 * The streamed page with its scripts fetched after the first paint (ADR 035):
 * holds the bytes back until React Router's module script has passed (it ends
 * the shell, which React writes in one go), rewrites them with `deferScripts`,
 * then passes the rest through. A page without that script passes unchanged.
 * Each chunk is searched once (with the last few bytes of the one before, so a
 * tag cut by a chunk boundary is found), and the held chunks are joined once.
 */
export function scriptsAfterPaint(options: AfterPaintOptions): Transform {
  const held: Buffer[] = [];
  let heldLength = 0;
  let tail: Buffer = Buffer.alloc(0);
  let typeAt = -1;
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (passing) return callback(null, chunk);
      // The window is the end of what is held and this chunk; `start` is where it begins in the page.
      const start = heldLength - tail.length;
      const window = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      held.push(chunk);
      heldLength += chunk.length;
      if (typeAt === -1) {
        const found = window.indexOf(MODULE_TYPE);
        if (found !== -1) typeAt = start + found;
      }
      const closing = typeAt === -1 ? -1 : window.indexOf(SCRIPT_END, Math.max(0, typeAt + MODULE_TYPE.length - start));
      if (closing === -1) {
        tail = Buffer.from(window.subarray(Math.max(0, window.length - OVERLAP)));
        return callback();
      }
      const cut = start + closing + SCRIPT_END.length;
      const page = Buffer.concat(held, heldLength);
      passing = true;
      held.length = 0;
      callback(null, Buffer.concat([deferScripts(page.subarray(0, cut), options), page.subarray(cut)]));
    },
    flush(callback) {
      callback(null, held.length > 0 ? Buffer.concat(held, heldLength) : null);
    },
  });
}
