import { type FormEvent, type InputHTMLAttributes, type ReactNode, useRef, useState } from "react";
import { Form, useNavigate, useNavigation } from "react-router";
import { AuthErrorBanner } from "~/components/accounts/auth-banner";
import { DASHBOARD_PATH } from "~/components/dashboard/dashboard-dialog";
import { ErrorLinks } from "~/components/forms/error-links";
import { useEnhanced } from "~/components/forms/use-enhanced";
import { useFormFailure } from "~/components/forms/use-form-failure";
import { useWhenChanged } from "~/components/forms/use-when-changed";
import { Banner } from "~/components/ui/banner";
import { Button, ButtonLink } from "~/components/ui/button";
import { type FieldControlProps, FormField, fieldsOf, inputClasses } from "~/components/ui/form-field";
import { TextArea } from "~/components/ui/text-input";
import { cityForFaculty, DEFAULT_FACULTY, findFaculty, findUniversity, UNIVERSITIES } from "~/directory/universities";
import { type KeysBelow, type MessageKey, useTranslation } from "~/i18n";
import { mobileE164 } from "~/lib/phone";
import { AMENITIES, GENDERS, PROPERTY_TYPES } from "~/schemas/browse-filters";
import type { MapTileSource } from "~/schemas/browse-view";
import { type ListingFormErrorField, type ListingFormState, listingProblems } from "~/schemas/form-problems";
import { LISTING_LIMITS, type ListingFormField, type ListingTextField, readListingForm } from "~/schemas/listing-form";
import { ChatAppFields } from "./chat-app-fields";
import { ListingFactsFields } from "./listing-facts-fields";
import { type PhoneCheck, PhoneCodeField } from "./phone-code-field";
import { type ExistingPhoto, PhotoPicker, type PhotoPickerState } from "./photo-picker";
import { PositionFields } from "./position-fields";
import "virtual:catalogue/listing-form";
import "virtual:catalogue/directory";

type Props = {
  mode: "create" | "edit";
  profile: { name: string; phone: string };
  /** Where the pin map takes its tiles from (MAP_TILE_URL); without it there is no pin map. */
  tiles?: MapTileSource;
  /** The listing being edited. */
  initial?: { values: Partial<Record<ListingTextField, string>>; amenities: string[]; photos: ExistingPhoto[] };
  /** The action's answer: a refusal, or success (with JavaScript), held for review or not. */
  result?: ListingFormState | { saved: true; held?: true };
  /** Phone confirmation by SMS (ADR 076): on or off, and the numbers this owner has confirmed. */
  phones?: PhoneCheck;
  /** The number (E.164) the listing being edited has: keeping it asks for no code. */
  keepPhone?: string | null;
};

const selectClasses = `${inputClasses} appearance-auto`;
/** An amount in rupees: digits only, with the phone's number pad. */
const rupeeInput =
  (value: string | undefined) =>
  (control: FieldControlProps): ReactNode => (
    <input
      {...control}
      type="text"
      inputMode="numeric"
      pattern="[0-9]*"
      defaultValue={value}
      className={inputClasses}
    />
  );
/** A one-line text box; `extra` adds the keyboard and autofill hints. */
const textInput =
  (maxLength: number, value: string | undefined, extra: InputHTMLAttributes<HTMLInputElement> = {}) =>
  (control: FieldControlProps): ReactNode => (
    <input {...control} type="text" {...extra} maxLength={maxLength} defaultValue={value} className={inputClasses} />
  );
/** The fields whose label is the catalogue's `listingForm.<field>`. */
type LabelledField = ListingFormField & KeysBelow<"listingForm">;
/** 0 (no advance) to LISTING_LIMITS.maxAdvanceMonths months of rent. */
const ADVANCE_MONTHS = Array.from({ length: LISTING_LIMITS.maxAdvanceMonths + 1 }, (_, months) => months);

/** The service failed, not the owner: shown as a network problem. */
const UNAVAILABLE = new Set(["listingForm.errors.unavailable", "listingForm.errors.saveUnavailable"]);

/** The success message shows for 2 seconds, then the dialog closes. */
const CLOSE_AFTER_MS = 2000;

/** How many photos the listing would have after this submit: kept, uploaded and attached. */
function photoTotal(form: FormData, existing: ExistingPhoto[]): { files: File[]; total: number } {
  const removed = new Set(form.getAll("removePhotos"));
  const files = form.getAll("photos").filter((f): f is File => typeof f !== "string" && (f.size > 0 || f.name !== ""));
  const uploads = new Set(form.getAll("uploadIds").filter((v) => v !== ""));
  return { files, total: existing.filter((p) => !removed.has(p.id)).length + uploads.size + files.length };
}

/**
 * The post and edit form. Plain multipart POST, so it works without
 * JavaScript; with it, the faculty list follows the chosen university, the
 * city updates live, problems show before sending, and success closes the
 * dialog after 2 seconds; an ad held for review says so and stays open until
 * the owner has read it.
 */
export function ListingForm({ mode, profile, initial, result, tiles, phones, keepPhone }: Props) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const enhanced = useEnhanced();
  const posting = navigation.state === "submitting";
  const serverState = result && "errors" in result ? result : undefined;
  const saved = result !== undefined && "saved" in result;
  const held = saved && result.held === true;
  const {
    failure: state,
    attempt,
    focusRef: summaryRef,
    browserFound,
  } = useFormFailure<Omit<ListingFormState, "attempt">>(result, serverState ?? null);
  const values = state?.values ?? initial?.values ?? {};
  const errors = state?.errors ?? {};
  const [universityName, setUniversityName] = useState(values.university ?? "");
  const [facultyName, setFacultyName] = useState(values.faculty || DEFAULT_FACULTY);
  const [propertyType, setPropertyType] = useState(values.propertyType || "single");
  const [picker, setPicker] = useState<PhotoPickerState>({ uploading: false, hasErrors: false, count: 0 });
  const [phoneTyped, setPhoneTyped] = useState(values.contactPhone ?? profile.phone);
  const successRef = useRef<HTMLDivElement>(null);

  useWhenChanged(() => {
    if (!saved) return;
    // The submit button is gone: focus stays in the dialog, on the message.
    successRef.current?.focus();
    if (held) return;
    const timer = setTimeout(() => navigate(DASHBOARD_PATH, { preventScrollReset: true }), CLOSE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [saved, held, result, navigate]);

  const university = findUniversity(universityName);
  // Without a position given so far, the pin map opens at the chosen faculty.
  const faculty = university ? (findFaculty(university, facultyName) ?? university.faculties[0] ?? null) : null;
  // Places in the reader's language (the English names stay the values sent).
  const city = university ? t(`directory.cities.${cityForFaculty(university, facultyName)}` as MessageKey) : "";
  const message = (field: ListingFormErrorField) =>
    errors[field] ? t(errors[field].key, errors[field].values) : undefined;
  const errorFields = Object.keys(errors) as ListingFormErrorField[];
  const phoneCheck = { enabled: phones?.enabled ?? false, confirmed: phones?.confirmed ?? [] };
  // The code the server asked for is WhatsApp's own number's (ADR 092), not the contact number's.
  const askedFor = state?.phoneCode ? mobileE164(state.phoneCode.phone) : null;
  const askedWhatsapp = askedFor !== null && askedFor !== mobileE164(values.contactPhone ?? "");
  // Held for the phone's SMS code, with nothing wrong: the top says where the code went, as a notice.
  const codeNotice = state?.phoneCode?.sent && errorFields.length === 0;
  const field = fieldsOf<LabelledField>({
    idPrefix: "listing",
    label: (name) => t(`listingForm.${name}`),
    error: message,
    requiredLabel: t("common.form.required"),
  });
  const words: Record<"submit" | "busy" | "done" | "held", MessageKey> =
    mode === "create"
      ? {
          submit: "listingForm.submit",
          busy: "listingForm.submitting",
          done: "listingForm.posted",
          held: "listingForm.held.title",
        }
      : {
          submit: "listingForm.edit.submit",
          busy: "listingForm.edit.submitting",
          done: "listingForm.edit.updated",
          held: "listingForm.edit.held",
        };

  if (held)
    return (
      <div className="space-y-4">
        <Banner ref={successRef} tabIndex={-1} variant="warning" title={t(words.held)} data-testid="listing-held">
          {t("listingForm.held.text")}
        </Banner>
        <ButtonLink to={DASHBOARD_PATH} variant="secondary" preventScrollReset>
          {t("listingForm.back")}
        </ButtonLink>
      </div>
    );
  if (saved) return <Banner ref={successRef} tabIndex={-1} variant="success" title={t(words.done)} />;

  // The same checks as the action, before anything is sent.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = new FormData(event.currentTarget);
    const raw = readListingForm(form);
    const values = {
      ...raw,
      contactName: raw.contactName || profile.name,
      contactPhone: raw.contactPhone || profile.phone,
    };
    const amenities = raw.amenities ?? [];
    const uploadProblem: MessageKey | null = picker.uploading
      ? "listingForm.errors.uploading"
      : picker.hasErrors
        ? "listingForm.errors.uploadErrors"
        : null;
    const { files, total } = photoTotal(form, initial?.photos ?? []);
    const problems = uploadProblem
      ? { errors: { photos: { key: uploadProblem } }, first: { key: uploadProblem } }
      : listingProblems(values, files, total);
    if (!problems) return;
    event.preventDefault();
    browserFound({ ...problems, values: raw, amenities });
  };

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      className="space-y-5"
      aria-describedby={state ? "listing-form-errors" : undefined}
    >
      <input type="hidden" name="attempt" value={attempt} />
      {enhanced ? <input type="hidden" name="enhanced" value="1" /> : null}
      {state ? (
        <div id="listing-form-errors" ref={summaryRef} tabIndex={-1} className="space-y-2">
          {codeNotice ? (
            <Banner variant="warning" title={t(state.first.key, state.first.values)} />
          ) : (
            <AuthErrorBanner
              message={t(state.first.key, state.first.values)}
              kind={UNAVAILABLE.has(state.first.key) ? "network" : "auth"}
              attempt={attempt}
            />
          )}
          {errorFields.length > 1 ? (
            <ErrorLinks fields={errorFields} idPrefix="listing" text={message} className="list-disc pl-9" />
          ) : null}
        </div>
      ) : null}

      <FormField {...field("title", { hint: t("listingForm.titleHint"), required: true })}>
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={LISTING_LIMITS.title}
            defaultValue={values.title}
            className={inputClasses}
          />
        )}
      </FormField>

      <FormField {...field("description", { required: true })}>
        {(control) => (
          <TextArea
            control={control}
            rows={6}
            maxLength={LISTING_LIMITS.description}
            defaultValue={values.description}
          />
        )}
      </FormField>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField {...field("price", { required: true })}>{rupeeInput(values.price)}</FormField>
        <FormField {...field("keymoneyFee", { hint: t("listingForm.keymoneyHint") })}>
          {rupeeInput(values.keymoneyFee)}
        </FormField>
        <FormField {...field("advanceMonths", { hint: t("listingForm.advanceMonthsHint") })}>
          {(control) => (
            <select {...control} defaultValue={values.advanceMonths} className={selectClasses}>
              <option value="">{t("listingForm.advanceNotStated")}</option>
              {ADVANCE_MONTHS.map((months) => (
                <option key={months} value={String(months)}>
                  {months === 0 ? t("listingForm.advanceNone") : t("listingForm.advanceOption", { count: months })}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField {...field("deposit", { hint: t("listingForm.depositHint") })}>
          {rupeeInput(values.deposit)}
        </FormField>
      </div>

      <FormField {...field("university", { required: true })}>
        {(control) => (
          <select
            {...control}
            value={universityName}
            onChange={(event) => {
              setUniversityName(event.currentTarget.value);
              setFacultyName(DEFAULT_FACULTY);
            }}
            className={selectClasses}
          >
            <option value="">{t("listingForm.chooseUniversity")}</option>
            {UNIVERSITIES.map((u) => (
              <option key={u.id} value={u.name}>
                {t(`directory.universities.${u.id}` as MessageKey)}
              </option>
            ))}
          </select>
        )}
      </FormField>

      <FormField {...field("faculty")}>
        {(control) => (
          <select
            {...control}
            value={facultyName}
            onChange={(event) => setFacultyName(event.currentTarget.value)}
            className={selectClasses}
          >
            <option value={DEFAULT_FACULTY}>{t("directory.faculties.main")}</option>
            {enhanced && university
              ? university.faculties
                  .filter((f) => f.name !== DEFAULT_FACULTY)
                  .map((f) => (
                    <option key={f.id} value={f.name}>
                      {t(`directory.faculties.${f.id}` as MessageKey)}
                    </option>
                  ))
              : UNIVERSITIES.filter((u) => u.faculties.some((f) => f.name !== DEFAULT_FACULTY)).map((u) => (
                  <optgroup key={u.id} label={t(`directory.universities.${u.id}` as MessageKey)}>
                    {u.faculties
                      .filter((f) => f.name !== DEFAULT_FACULTY)
                      .map((f) => (
                        <option key={f.id} value={f.name}>
                          {t(`directory.faculties.${f.id}` as MessageKey)}
                        </option>
                      ))}
                  </optgroup>
                ))}
          </select>
        )}
      </FormField>

      <FormField id="listing-city" name="" label={t("listingForm.city")} hint={t("listingForm.cityHint")}>
        {(control) => (
          <input
            id={control.id}
            aria-describedby={control["aria-describedby"]}
            type="text"
            readOnly
            value={city || t("listingForm.cityUnknown")}
            className={`${inputClasses} bg-slate-100`}
          />
        )}
      </FormField>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField {...field("propertyType", { required: true })}>
          {(control) => (
            <select
              {...control}
              defaultValue={values.propertyType || "single"}
              onChange={(event) => setPropertyType(event.currentTarget.value)}
              className={selectClasses}
            >
              {PROPERTY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`listingForm.propertyTypes.${type}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField {...field("gender")}>
          {(control) => (
            <select {...control} defaultValue={values.gender || "any"} className={selectClasses}>
              {GENDERS.map((gender) => (
                <option key={gender} value={gender}>
                  {t(`listingForm.genders.${gender}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>

      <fieldset id="listing-amenities" aria-describedby={errors.amenities ? "listing-amenities-error" : undefined}>
        <legend className="mb-1 font-medium text-slate-900">{t("listingForm.amenities")}</legend>
        <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
          {AMENITIES.map((amenity) => (
            <label key={amenity} className="flex min-h-11 items-center gap-2">
              <input
                type="checkbox"
                name="amenities"
                value={amenity}
                defaultChecked={(state?.amenities ?? initial?.amenities ?? []).includes(amenity)}
                className="h-5 w-5 accent-brand-700"
              />
              {amenity}
            </label>
          ))}
        </div>
        {errors.amenities ? (
          <p id="listing-amenities-error" className="mt-1 text-sm font-medium text-red-700">
            {message("amenities")}
          </p>
        ) : null}
      </fieldset>

      <ListingFactsFields values={values} message={message} propertyType={enhanced ? propertyType : null} />

      <PositionFields values={values} message={message} enhanced={enhanced} tiles={tiles} near={faculty} />

      <FormField {...field("location", { hint: t("listingForm.locationHint") })}>
        {textInput(LISTING_LIMITS.location, values.location)}
      </FormField>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField {...field("contactName", { required: true })}>
          {textInput(LISTING_LIMITS.name, values.contactName ?? profile.name, { autoComplete: "name" })}
        </FormField>
        <FormField {...field("contactPhone", { required: true })}>
          {textInput(LISTING_LIMITS.phone, values.contactPhone ?? profile.phone, {
            type: "tel",
            autoComplete: "tel",
            onChange: (event) => setPhoneTyped(event.currentTarget.value),
          })}
        </FormField>
      </div>

      <PhoneCodeField
        {...phoneCheck}
        typed={phoneTyped}
        keep={keepPhone}
        asked={askedWhatsapp ? undefined : state?.phoneCode}
        error={askedWhatsapp ? undefined : message("phoneCode")}
        enhanced={enhanced}
      />

      <ChatAppFields
        values={values}
        whatsappField={field("whatsappPhone", { hint: t("listingForm.whatsappPhoneHint") })}
        phones={phoneCheck}
        contactTyped={phoneTyped}
        keepWhatsapp={mobileE164(initial?.values.whatsappPhone ?? "")}
        asked={askedWhatsapp ? state?.phoneCode : undefined}
        codeError={askedWhatsapp ? message("phoneCode") : undefined}
        enhanced={enhanced}
      />

      <FormField {...field("photos", { hint: t("listingForm.photosHint"), required: true })}>
        {(control) => (
          <PhotoPicker
            id={control.id}
            describedBy={control["aria-describedby"]}
            invalid={control["aria-invalid"]}
            existing={initial?.photos}
            uploaded={state?.uploads}
            onStateChange={setPicker}
          />
        )}
      </FormField>

      <Button type="submit" size="lg" disabled={posting || picker.uploading}>
        {posting ? t(words.busy) : t(words.submit)}
      </Button>
    </Form>
  );
}
