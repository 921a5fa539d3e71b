import type { Route } from "./+types/dashboard.photos.$id.delete";
import { getSessionUser, isSameOrigin } from "~/auth/auth.server";
import { t } from "~/i18n";
import { deleteOwnUpload } from "~/models/photo-upload.server";
import { requestContext } from "~/services.server";
import "virtual:catalogue/photos";

/** POST /dashboard/photos/{id}/delete: removes one of your own uploads that no listing has claimed. */
const PHOTO_ID = /^[0-9a-f-]{36}$/;

function answer(body: Record<string, unknown>, status: number) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { db, env, storage } = context.get(requestContext);
  const user = await getSessionUser(request, context);
  if (!user) return answer({ error: t("photos.errors.signIn") }, 401);
  if (!isSameOrigin(request, env.siteUrl)) return answer({ error: t("photos.errors.origin") }, 403);
  const removed = PHOTO_ID.test(params.id) && (await deleteOwnUpload(db, storage, user.id, params.id));
  if (!removed) return answer({ error: t("photos.errors.notFound") }, 404);
  return answer({ removed: true }, 200);
}
