import { data } from "react-router";
import { t } from "~/i18n";
import { MAX_MULTIPART_BYTES, readBody } from "./body-limit.server";
import "virtual:catalogue/security";

/**
 * The posted form, or a 400 with a plain message when the body cannot be read
 * as one (a malformed multipart body would otherwise throw: a 500). The
 * security middleware already refuses bodies that are not forms, and forms
 * over its caps (MAX_BODY_BYTES; multipart only where files go): the cap here
 * is only the largest body it lets through.
 */
export async function readForm(request: Request): Promise<FormData> {
  const read = await readBody(request, { maxBytes: MAX_MULTIPART_BYTES, kinds: ["urlencoded", "multipart"] });
  if (read.ok) return read.body;
  if (read.problem === "tooLarge") throw data(t("security.tooLarge.text"), { status: 413 });
  throw data(t("security.unreadableForm"), { status: 400 });
}
