import { robotsTxt } from "~/api/robots";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/robots[.]txt";

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  return new Response(robotsTxt(env.siteUrl), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
