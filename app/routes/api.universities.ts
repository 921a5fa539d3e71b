import { jsonResponse, methodNotAllowed, STATIC_CACHE_CONTROL } from "~/api/responses";
import { universityDirectory } from "~/api/universities";
import type { Route } from "./+types/api.universities";

export function loader() {
  return jsonResponse(universityDirectory(), { cacheControl: STATIC_CACHE_CONTROL });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request);
}
