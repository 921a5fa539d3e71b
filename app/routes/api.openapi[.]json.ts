import { openApiDocument } from "~/api/openapi";
import { jsonResponse, methodNotAllowed, STATIC_CACHE_CONTROL } from "~/api/responses";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/api.openapi[.]json";

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(requestContext);
  return jsonResponse(openApiDocument(env.siteUrl), { cacheControl: STATIC_CACHE_CONTROL });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
