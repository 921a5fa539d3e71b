import { redirect } from "react-router";
import { stopSearchAlert } from "~/models/search-alerts.server";
import { readAlertToken } from "~/security/alert-token.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/alerts.unsubscribe.$token";

// The List-Unsubscribe URL of alert emails (RFC 2369, RFC 8058; ADR 058). A mail
// service's one-click POST (body `List-Unsubscribe=One-Click`) comes from its
// own servers, without cookies and perhaps with its own Origin: a resource
// route, so neither our foreign-Origin refusal (isLinkSignedWrite) nor React
// Router's document-action check turns it away. The signed link is the only
// credential and stops one alert. A GET (an older mail client) goes to the
// stop page, which stops it and offers Undo.

function stopPagePath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname.replace(/\/alerts\/unsubscribe\//, "/alerts/stop/");
}

export async function loader({ request }: Route.LoaderArgs) {
  return redirect(stopPagePath(request), 303);
}

export async function action({ params, context }: Route.ActionArgs) {
  const { db, secrets } = context.get(requestContext);
  const text = (body: string, status: number) =>
    new Response(`${body}\n`, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  const id = readAlertToken(secrets.sessionSecret, "stop", params.token);
  if (!id) return text("This link is not valid.", 404);
  return (await stopSearchAlert(db, id)) ? text("Alert stopped.", 200) : text("This alert no longer exists.", 404);
}
