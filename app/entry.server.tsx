import fs from "node:fs";
import { PassThrough, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import stylesheetHref from "./app.css?url";
import { putStylesheetBack, STYLESHEET_PLACEHOLDER } from "./cache/inline-stylesheet.server";
import { currentRenderHints } from "./cache/render-hints.server";
import { InlineStylesheetContext } from "./components/stylesheet";
import { MessagePreloads, messageFilesFor } from "./i18n/message-files.server";
import {
  type AfterPaintOptions,
  deferScripts,
  PAGES_HYDRATED_AFTER_PAINT,
  scriptsAfterPaint,
} from "./lib/scripts-after-paint.server";
import { requestContext } from "./services.server";

export const streamTimeout = 5_000;

/**
 * Registers the service worker once the page has loaded (ADR 088): inline, written by the server,
 * so it is no part of any page's first-load JavaScript (the budget, ADR 035), and the page's nonce
 * (or its hash, from the page cache) lets it run. Old browsers without workers skip it.
 */
const REGISTER_WORKER =
  'if("serviceWorker"in navigator)addEventListener("load",function(){navigator.serviceWorker.register("/sw.js").catch(function(){})})';

let stylesheetText: string | null | undefined;

/**
 * The built stylesheet's text, read once, for inlining into every page
 * (components/stylesheet.tsx). The server bundle sits in build/server (or
 * a chunk of it in build/server/assets), the file in build/client. Null in development (Vite serves and hot-reloads the
 * stylesheet itself) or when the file cannot be read (the page then links it).
 */
function inlineStylesheetText(): string | null {
  if (stylesheetText !== undefined) return stylesheetText;
  stylesheetText = null;
  if (import.meta.env.DEV) return stylesheetText;
  for (const clientDir of ["../client", "../../client"]) {
    const file = fileURLToPath(new URL(`${clientDir}${stylesheetHref}`, import.meta.url));
    if (fs.existsSync(file)) stylesheetText ??= fs.readFileSync(file, "utf8");
  }
  return stylesheetText;
}

/**
 * Unexpected errors are logged with the request id; the page shows the same id
 * (root ErrorBoundary) so a report from a user can be matched to the log line.
 * Aborted requests (the user navigated away) are not errors.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const log = requestInfo(context)?.log;
  if (log) log.error({ err: error, url: request.url, method: request.method }, "unexpected error");
  // Without our context (it failed before one was made) the error must still be seen.
  else console.error("unexpected error", request.method, request.url, error);
};

/** This request's services, or undefined when the error came before they were set. */
function requestInfo(context: Pick<RouterContextProvider, "get"> | undefined) {
  try {
    return context?.get(requestContext);
  } catch {
    return undefined;
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    // A page is read whole before a byte is sent: rendered to the end into one buffer, with no stream
    // between React and the page cache or the response's compression (ADRs 121, 138). server/pages.ts
    // asks it for every page; a render without its hints streams, as React Router's own entry does.
    const hints = currentRenderHints();
    const whole = hints?.whole === true;
    const readyOption: keyof RenderToPipeableStreamOptions =
      whole || (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // The CSP nonce (app/security/headers.server.ts): ServerRouter hands it to
    // <Scripts>, <ScrollRestoration> and the streamed data; React to its own inline scripts.
    const { nonce, locale, dataSaver } = loadContext.get(requestContext);
    const css = inlineStylesheetText();
    // A page read whole gets the stylesheet's text put back once rendered, not written by React (ADR 128).
    const inline = css === null ? null : { css: whole ? STYLESHEET_PLACEHOLDER : css, nonce };
    // Read-only pages fetch their scripts and message files after the first paint (ADR 035).
    const messageFiles = messageFilesFor(routerContext, locale);
    const page = routerContext.staticHandlerContext.matches.at(-1)?.route.id ?? "";
    // Data saver: these pages work without JavaScript, so they are sent without it (ADR 090).
    const afterPaint: AfterPaintOptions | null = PAGES_HYDRATED_AFTER_PAINT.has(page)
      ? { nonce, fetches: messageFiles, scriptless: dataSaver === true }
      : null;
    const { pipe, abort } = renderToPipeableStream(
      <InlineStylesheetContext value={inline}>
        {afterPaint !== null ? null : <MessagePreloads files={messageFiles} />}
        {/* React puts it in the head: the installable app in the page's language (ADR 088). */}
        <link rel="manifest" href={`/manifest.${locale}.webmanifest`} />
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </InlineStylesheetContext>,
      {
        nonce,
        // Data saver: no worker, whose install fetches every precached file in the background (ADR 090).
        bootstrapScriptContent: dataSaver ? undefined : REGISTER_WORKER,
        [readyOption]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html");
          if (whole) {
            pipe(
              wholePage(
                afterPaint,
                (page) => (css === null ? page : putStylesheetBack(page, css, hints)),
                (page) => {
                  clearTimeout(timeoutId);
                  timeoutId = undefined;
                  resolve(new Response(page, { headers: responseHeaders, status: responseStatusCode }));
                },
              ),
            );
            return;
          }
          const body = new PassThrough({
            final(callback) {
              // Clear the timeout to prevent retaining the closure and memory leak
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);

          if (afterPaint) {
            const rewrite = scriptsAfterPaint(afterPaint);
            rewrite.pipe(body);
            pipe(rewrite);
          } else {
            pipe(body);
          }

          resolve(
            new Response(stream, {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) {
            loadContext.get(requestContext).log.error({ err: error }, "render error");
          }
        },
      },
    );
  });
}

/**
 * Where React writes a page read whole (ADR 121): its chunks are kept and joined once at the
 * end, the scripts moved after the first paint in one pass (`deferScripts`), not chunk by chunk
 * through a transform and a web stream that the page cache would only read to the end;
 * `finish` puts the stylesheet's text back (ADR 128).
 */
function wholePage(
  afterPaint: AfterPaintOptions | null,
  finish: (page: Buffer) => Buffer,
  done: (page: Uint8Array<ArrayBuffer>) => void,
): Writable {
  const chunks: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
    final(callback) {
      const joined = Buffer.concat(chunks);
      const page = finish(afterPaint ? deferScripts(joined, afterPaint) : joined);
      // A view of the same bytes, typed as the Fetch API takes them.
      done(new Uint8Array(page.buffer as ArrayBuffer, page.byteOffset, page.byteLength));
      callback();
    },
  });
}
