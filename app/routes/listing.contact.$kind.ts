import { countContactTap, isContactTapKind } from "~/models/listing-taps.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/listing.contact.$kind";

// POST /listing/{slug}/contact/{call|whatsapp|viber}: the listing page's contact links
// name it in their `ping` attribute, and its script sends it as a beacon (ADR 089).
// The links themselves go straight to tel:, wa.me and viber: as before.

const noStore = { "Cache-Control": "no-store" };

export function loader() {
  return new Response(null, { status: 405, headers: { ...noStore, Allow: "POST" } });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return loader();
  if (!isContactTapKind(params.kind)) return new Response(null, { status: 404, headers: noStore });
  const { db, env, secrets, limiter, clientIp } = context.get(requestContext);
  const counted = await countContactTap(
    db,
    request,
    { slug: params.slug, kind: params.kind },
    {
      limiter,
      clientIp,
      visitorSalt: secrets.visitorSalt,
      visitorSecret: secrets.sessionSecret,
      siteUrl: env.siteUrl,
    },
  );
  return new Response(null, { status: counted === null ? 404 : 204, headers: noStore });
}
