import { createContext, useContext } from "react";
import { STYLESHEET_ELEMENT_ID } from "~/lib/stylesheet-element";

/**
 * The site's one stylesheet, inlined into every server-rendered page in
 * production (ADR 021): a first paint then waits for the HTML only,
 * not for a second request on a slow mobile link. The server render gets the
 * text through this context (app/entry.server.tsx); in the browser the context
 * is empty and the element the server sent is kept as it is. In development,
 * or if the built file cannot be read, it is an ordinary <link>.
 */
export type InlineStylesheet = { css: string; nonce?: string };

export const InlineStylesheetContext = createContext<InlineStylesheet | null>(null);

export function Stylesheet({ href }: { href: string }) {
  const inline = useContext(InlineStylesheetContext);
  // Hydrating (or re-rendering) a page whose styles the server inlined: render
  // the same element with empty content, which React never writes into the DOM
  // (hydration keeps the server's text; later renders see no change).
  const inlinedByServer =
    inline === null && typeof document !== "undefined" && document.getElementById(STYLESHEET_ELEMENT_ID) !== null;
  if (inline || inlinedByServer) {
    return (
      <style
        id={STYLESHEET_ELEMENT_ID}
        data-href={href}
        nonce={inline?.nonce}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own built stylesheet, read from the build at start-up (ADR 021), never user input
        dangerouslySetInnerHTML={{ __html: inline?.css ?? "" }}
        suppressHydrationWarning
      />
    );
  }
  // A precedence makes React send it first in <head>, ahead of the script preloads.
  return <link rel="stylesheet" href={href} precedence="default" />;
}
