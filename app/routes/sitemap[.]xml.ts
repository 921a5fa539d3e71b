import { buildSitemap } from "~/api/sitemap.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/sitemap[.]xml";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = context.get(requestContext);
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw === null ? null : /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
  const xml = await buildSitemap(db, env.siteUrl, page);
  if (xml === null)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
