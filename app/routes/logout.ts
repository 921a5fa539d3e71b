import { redirect } from "react-router";
import { cookieHeaders, getAuth } from "~/auth/auth.server";
import { isSameOrigin } from "~/security/origin.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/logout";

export function loader() {
  return redirect("/");
}

/** Ends the session (the spec: logout errors are only logged). */
export async function action({ request, context }: Route.ActionArgs) {
  const info = context.get(requestContext);
  if (!isSameOrigin(request, info.env.siteUrl)) return redirect("/");
  try {
    const { headers } = await getAuth(info).api.signOut({ headers: request.headers, returnHeaders: true });
    return redirect("/", { headers: cookieHeaders(headers) });
  } catch (error) {
    info.log.warn({ err: error }, "logout failed");
    return redirect("/");
  }
}
