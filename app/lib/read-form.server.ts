import { data } from "react-router";
import { t } from "~/i18n";
import "virtual:catalogue/security";

/**
 * The posted form, or a 400 with a plain message when the body cannot be read
 * as one (a malformed multipart body would otherwise throw: a 500). The
 * security middleware already refuses bodies that are not forms at all.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data(t("security.unreadableForm"), { status: 400 });
  }
}
