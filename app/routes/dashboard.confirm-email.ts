import { redirect } from "react-router";
import { getAuth } from "~/auth/auth.server";
import { signedIn } from "~/auth/guard.server";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.confirm-email";

// 'Send the link again' (ADR 066): a new address-confirmation email for the
// signed-in account, at most confirmEmailUser times an hour (our own limiter:
// calls through auth.api skip better-auth's). A plain form post from the
// dashboard banner or the post dialog; the answer goes back there in the URL,
// so it works without JavaScript.

const BACK = new Set(["/dashboard", "/dashboard/listings/new"]);

export function loader() {
  return redirect("/dashboard");
}

export async function action({ request, context }: Route.ActionArgs) {
  const info = context.get(requestContext);
  // A visitor is sent to log in; a page of another site gets a 403 (ADR 025).
  const user = await signedIn.user({ request, context });
  const form = await readForm(request);
  const given = String(form.get("back") ?? "");
  const back = BACK.has(given) ? given : "/dashboard";
  const answer = (notice: "sent" | "limited" | "unavailable" | null) =>
    redirect(notice ? `${back}?confirmEmail=${notice}` : back, 303);
  if (user.emailConfirmed) return answer(null);
  const allowed = await info.limiter.consume("confirmEmailUser", { user: user.id });
  if (!allowed.ok) return answer(allowed.unavailable ? "unavailable" : "limited");
  try {
    await getAuth(info).api.sendVerificationEmail({ body: { email: user.email }, headers: request.headers });
  } catch (error) {
    info.log.error({ err: error }, "could not send the address confirmation again");
    return answer("unavailable");
  }
  return answer("sent");
}
