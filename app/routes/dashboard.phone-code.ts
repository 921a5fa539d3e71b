import { redirect } from "react-router";
import { judgeRequest } from "~/auth/guard.server";
import { localPhone } from "~/lib/phone";
import type { PhoneCodeAnswer } from "~/schemas/phone-code-answer";
import { noStore } from "~/security/no-store.server";
import { readForm } from "~/security/read-form.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.phone-code";

/**
 * POST /dashboard/phone-code: 'Send code' (intent=send) and 'Confirm'
 * (intent=confirm, code) for a contact phone (ADR 076), for the post form's
 * phone field with JavaScript (JSON, PhoneCodeAnswer) and for My Ads' banner
 * that asks to confirm a number again after 180 days, a plain form
 * (back=/dashboard: the answer goes back there in the address). Every rule is
 * the model's (app/models/phone-confirmation.server.ts); posting checks again.
 */

/** Never cached, like the dashboard it serves. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

export function loader() {
  return redirect("/dashboard");
}

function json(body: PhoneCodeAnswer, status: number) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

/** Back to My Ads with the answer in its address (no JavaScript). */
function backToMyAds(phone: string, answer: PhoneCodeAnswer) {
  const query = new URLSearchParams({ phone });
  if (answer.ok) query.set("phoneCode", answer.status);
  else {
    query.set("phoneCode", answer.code);
    for (const [name, value] of Object.entries(answer.values ?? {})) query.set(name, String(value));
  }
  return redirect(`/dashboard?${query}`, 303);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { phones, clientIp, log } = context.get(requestContext);
  const verdict = await judgeRequest({ request, context });
  if (!verdict.ok)
    return verdict.refusal === "signedOut"
      ? json({ ok: false, code: "signedOut" }, 401)
      : json({ ok: false, code: "origin" }, 403);
  const { user } = verdict;
  const form = await readForm(request);
  const typed = String(form.get("phone") ?? "").slice(0, 40);
  const intent = form.get("intent") === "confirm" ? "confirm" : "send";
  const code = String(form.get("code") ?? "").slice(0, 20);

  let answer: PhoneCodeAnswer;
  let status = 200;
  try {
    if (intent === "send") {
      const sent = await phones.requestCode(user, typed, clientIp, user.locale);
      answer = sent.ok
        ? { ok: true, status: sent.status === "sent" ? "sent" : "confirmed", phone: sent.phone }
        : { ok: false, code: sent.code, ...(sent.values ? { values: sent.values } : {}) };
    } else {
      const confirmed = await phones.confirmCode(user, typed, code);
      answer = confirmed.ok
        ? { ok: true, status: "confirmed", phone: confirmed.phone }
        : { ok: false, code: confirmed.code, ...(confirmed.values ? { values: confirmed.values } : {}) };
    }
  } catch (error) {
    log.error({ err: error }, "a phone code could not be sent or checked");
    answer = { ok: false, code: "phone.unavailable" };
  }
  if (!answer.ok)
    status = answer.code === "phone.unavailable" ? 503 : answer.code.startsWith("phone.limited") ? 429 : 400;
  if (form.get("back") === "/dashboard") return backToMyAds(answer.ok ? localPhone(answer.phone) : typed, answer);
  return json(answer, status);
}
