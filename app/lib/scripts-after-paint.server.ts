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

const MODULE_TYPE = Buffer.from('type="module"');
const SCRIPT_END = Buffer.from("</script>");
const MODULE_SCRIPT = /<script\b([^>]*?)\stype="module"(?:\s+async="")?([^>]*)>/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*?\shref="([^"]+)"[^>]*>/g;

export type AfterPaintOptions = {
  /** This response's CSP nonce, for the boot script (a cached page is served with hashes instead). */
  nonce: string | undefined;
  /** The page's message files (ADR 030), hinted beside the modules. */
  fetches: readonly string[];
};

/** JSON for an inline script: a '<' can never close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

/**
 * Rewrites the start of a page, up to and including React Router's inline
 * module script: its `<link rel="modulepreload">` tags go, the module script
 * becomes inert, and the boot script follows it. Anything else is unchanged.
 */
export function deferScripts(head: string, options: AfterPaintOptions): string {
  const match = MODULE_SCRIPT.exec(head);
  if (!match || /\ssrc=/.test(match[0])) return head;
  const end = head.indexOf("</script>", match.index) + "</script>".length;
  const modules: string[] = [];
  const rewrite = (part: string) =>
    part.replaceAll(MODULE_PRELOAD, (_tag, href: string) => {
      modules.push(href);
      return "";
    });
  const before = rewrite(head.slice(0, match.index));
  const block = `<script${match[1]} type="${MODULE_AFTER_PAINT_TYPE}"${match[2]}>${head.slice(match.index + match[0].length, end)}`;
  const after = rewrite(head.slice(end));
  const nonce = options.nonce === undefined ? "" : ` nonce="${options.nonce}"`;
  const boot = `<script${nonce}>${BOOT}(${scriptJson(modules)},${scriptJson(options.fetches)})</script>`;
  return before + block + boot + after;
}

/**
 * The streamed page with its scripts fetched after the first paint (ADR 035):
 * holds the bytes back until React Router's module script has passed (it ends
 * the shell, which React writes in one go), rewrites them with `deferScripts`,
 * then passes the rest through. A page without that script passes unchanged.
 * Byte-exact whatever the chunk boundaries, inside a tag or inside a Sinhala or
 * Tamil character: the held bytes are decoded only once they end in '</script>'.
 */
export function scriptsAfterPaint(options: AfterPaintOptions): Transform {
  let held: Buffer[] = [];
  let heldLength = 0;
  let searchFrom = 0;
  let passing = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (passing) return callback(null, chunk);
      held.push(chunk);
      heldLength += chunk.length;
      const data = held.length === 1 ? held[0] : Buffer.concat(held, heldLength);
      held = [data];
      const type = data.indexOf(MODULE_TYPE, searchFrom);
      const end = type === -1 ? -1 : data.indexOf(SCRIPT_END, type);
      if (end === -1) {
        // Nothing before here can start the match; keep only a possible cut-off start.
        searchFrom = type === -1 ? Math.max(0, data.length - MODULE_TYPE.length) : type;
        return callback();
      }
      const cut = end + SCRIPT_END.length;
      passing = true;
      held = [];
      callback(
        null,
        Buffer.concat([Buffer.from(deferScripts(data.subarray(0, cut).toString("utf8"), options)), data.subarray(cut)]),
      );
    },
    flush(callback) {
      callback(null, held.length > 0 ? Buffer.concat(held) : null);
    },
  });
}
