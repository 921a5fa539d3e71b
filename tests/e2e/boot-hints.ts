/**
 * What a page's boot script (ADR 035) hints after the first paint: the modules
 * React Router's <Scripts> would have preloaded, and the page's message files.
 * Null when the page has no boot script.
 */
export function bootHints(html: string): { modules: string[]; messages: string[] } | null {
  const call = /\}\)\((\[[^\]]*\]),(\[[^\]]*\])\)<\/script>/.exec(html);
  if (!call) return null;
  return { modules: JSON.parse(call[1]) as string[], messages: JSON.parse(call[2]) as string[] };
}
