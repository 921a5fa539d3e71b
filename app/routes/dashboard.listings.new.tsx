import { data, redirect } from "react-router";
import type { Route } from "./+types/dashboard.listings.new";
import { isSameOrigin, requireUser } from "~/auth/auth.server";
import { type FormMessage, ListingForm, type ListingFormState } from "~/components/listing-form/listing-form";
import { Banner } from "~/components/ui/banner";
import { ButtonLink } from "~/components/ui/button";
import { t as translate, useTranslation } from "~/i18n";
import { pageMeta } from "~/lib/seo";
import { countOwnerListings, createOwnerListing, MAX_LISTINGS_PER_OWNER } from "~/models/listing-owner.server";
import { LISTING_LIMITS, type ListingFormField, parseListingForm, readListingForm } from "~/schemas/listing-form";
import { requestContext } from "~/services.server";
import "virtual:catalogue/listing-form";

/** 3 photos under 5MB each plus the text fields, with room for multipart overhead. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { siteName, siteUrl } = loaderData;
  return pageMeta({
    title: translate("listingForm.metaTitle", { siteName }),
    description: translate("listingForm.metaDescription", { siteName }),
    siteName,
    siteUrl,
    path: "/dashboard/listings/new",
    noindex: true,
  });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = context.get(requestContext);
  const user = await requireUser(request, context);
  const atLimit = (await countOwnerListings(db, user.id)) >= MAX_LISTINGS_PER_OWNER;
  return { siteName: env.SITE_NAME, siteUrl: env.siteUrl, atLimit, profile: { name: user.name, phone: user.phone } };
}

type Refusal = ListingFormState & { limitReached?: true };

function refuse(first: FormMessage, status: number, extra: Partial<Refusal> = {}) {
  return data({ errors: {}, values: {}, amenities: [], first, ...extra } satisfies Refusal, { status });
}

/** Reads the body with a size cap, so an oversized upload is refused before it is buffered whole. */
async function readLimitedForm(request: Request): Promise<FormData | "tooLarge" | "invalid"> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_REQUEST_BYTES) return "tooLarge";
  if (!request.body) return "invalid";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > MAX_REQUEST_BYTES) return "tooLarge";
    chunks.push(chunk);
  }
  try {
    return await new Response(Buffer.concat(chunks), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    return "invalid";
  }
}

function photoProblems(files: File[]): FormMessage | null {
  if (files.length > LISTING_LIMITS.maxPhotos) return { key: "listingForm.errors.photoCount" };
  for (const [i, file] of files.entries()) {
    if (!file.type.startsWith("image/")) return { key: "listingForm.errors.photoType", values: { n: i + 1 } };
    if (file.size >= LISTING_LIMITS.maxPhotoBytes) return { key: "listingForm.errors.photoSize", values: { n: i + 1 } };
  }
  if (files.length === 0) return { key: "listingForm.errors.photoRequired" };
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, env, log, storage } = context.get(requestContext);
  const user = await requireUser(request, context);
  if (!isSameOrigin(request, env.siteUrl)) return refuse({ key: "listingForm.errors.origin" }, 403);
  const form = await readLimitedForm(request);
  if (form === "tooLarge") return refuse({ key: "listingForm.errors.requestTooLarge" }, 413, { errors: { photos: { key: "listingForm.errors.requestTooLarge" } } });
  if (form === "invalid") return refuse({ key: "listingForm.errors.required" }, 400);

  const raw = readListingForm(form);
  const values = { ...raw, contactName: raw.contactName?.trim() ? raw.contactName : user.name, contactPhone: raw.contactPhone?.trim() ? raw.contactPhone : user.phone };
  const amenities = raw.amenities ?? [];
  const files = form.getAll("photos").filter((f): f is File => typeof f !== "string" && (f.size > 0 || f.name !== ""));

  // Every problem the text and the files have is reported at once; the model checks all again.
  const parsed = parseListingForm(values);
  const photoError = photoProblems(files);
  if (!parsed.ok || photoError) {
    const errors: Partial<Record<ListingFormField, FormMessage>> = {};
    if (!parsed.ok) for (const [field, key] of Object.entries(parsed.errors)) errors[field as ListingFormField] = { key };
    if (photoError) errors.photos = photoError;
    const missing = Object.values(errors).some((e) => e.key === "listingForm.errors.required" || e.key === "listingForm.errors.photoRequired");
    const first = missing ? { key: "listingForm.errors.required" } : parsed.ok ? photoError! : { key: parsed.first };
    return data({ errors, first, values, amenities } satisfies Refusal, { status: 400 });
  }

  try {
    const photos = await Promise.all(files.map(async (f) => Buffer.from(await f.arrayBuffer())));
    const result = await createOwnerListing(db, storage, user, values, photos);
    if (result.ok) {
      log.info({ listingId: result.listing.id }, "listing posted");
      return redirect("/dashboard?posted=1");
    }
    return data({ errors: result.errors, first: result.first, values, amenities, ...(result.limitReached ? { limitReached: true as const } : {}) } satisfies Refusal, {
      status: result.limitReached ? 409 : 400,
    });
  } catch (error) {
    log.error({ err: error }, "posting a listing failed");
    return refuse({ key: "listingForm.errors.unavailable" }, 503, { values, amenities });
  }
}

export default function NewListing({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const state = actionData as Refusal | undefined;
  const atLimit = loaderData.atLimit || state?.limitReached;
  return (
    <section aria-labelledby="new-listing-heading" className="max-w-2xl">
      <h2 id="new-listing-heading" className="text-2xl font-semibold">
        {t("listingForm.heading")}
      </h2>
      {atLimit ? (
        <div className="mt-4 space-y-4">
          {state?.limitReached ? (
            <Banner variant="error" title={t("listingForm.errorTitle")}>
              {t(state.first.key)}
            </Banner>
          ) : null}
          <Banner variant="warning" title={t("listingForm.limitTitle")}>
            {t("listingForm.limitReached")}
          </Banner>
          <ButtonLink to="/dashboard" variant="secondary">
            {t("listingForm.back")}
          </ButtonLink>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-700">{t("listingForm.intro")}</p>
          <div className="mt-4">
            <ListingForm profile={loaderData.profile} state={state} />
          </div>
        </>
      )}
    </section>
  );
}
