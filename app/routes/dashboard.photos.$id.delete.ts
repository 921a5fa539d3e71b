import { judgeRequest } from "~/auth/guard.server";
import { t } from "~/i18n";
import { deleteOwnUpload } from "~/models/photo-upload.server";
import { noStore } from "~/security/no-store.server";
import { requestContext } from "~/services.server";
import type { Route } from "./+types/dashboard.photos.$id.delete";
import "virtual:catalogue/photos";

/** POST /dashboard/photos/{id}/delete: removes one of your own uploads that no listing has claimed. */
const PHOTO_ID = /^[0-9a-f-]{36}$/;

/** Never cached, like the dashboard it serves. */
export const middleware: Route.MiddlewareFunction[] = [noStore];

function answer(body: Record<string, unknown>, status: number) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db, storage } = context.get(requestContext);
  const verdict = await judgeRequest({ request, context });
  if (!verdict.ok) {
    return verdict.refusal === "signedOut"
      ? answer({ error: t("photos.errors.signIn") }, 401)
      : answer({ error: t("photos.errors.origin") }, 403);
  }
  const removed = PHOTO_ID.test(params.id) && (await deleteOwnUpload(db, storage, verdict.user.id, params.id)).ok;
  if (!removed) return answer({ error: t("photos.errors.notFound") }, 404);
  return answer({ removed: true }, 200);
}
