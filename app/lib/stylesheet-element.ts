/**
 * The id of the inline stylesheet's element (app/components/stylesheet.tsx): the browser finds
 * the server's copy by it, and the page cache the place to put its text back (ADR 128).
 */
export const STYLESHEET_ELEMENT_ID = "site-css";
