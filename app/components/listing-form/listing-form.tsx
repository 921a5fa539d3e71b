import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Banner } from "~/components/ui/banner";
import { Button } from "~/components/ui/button";
import { FormField, inputClasses } from "~/components/ui/form-field";
import { cityForFaculty, cityName, DEFAULT_FACULTY, findUniversity, UNIVERSITIES } from "~/directory/universities";
import { useTranslation } from "~/i18n";
import { isMapLink } from "~/lib/location-link";
import { AMENITIES, GENDERS, PROPERTY_TYPES } from "~/schemas/browse-filters";
import { LISTING_LIMITS, type ListingFormField, type ListingTextField } from "~/schemas/listing-form";
import "virtual:catalogue/listing-form";

export type FormMessage = { key: string; values?: Record<string, number> };

/** What the action sends back after a refused post: the values (never files) and the messages. */
export type ListingFormState = {
  errors: Partial<Record<ListingFormField, FormMessage>>;
  first: FormMessage;
  values: Partial<Record<ListingTextField, string>>;
  amenities: string[];
};

type Props = {
  profile: { name: string; phone: string };
  state?: ListingFormState;
};

const selectClasses = `${inputClasses} appearance-auto`;

/**
 * The post-ad form. Plain multipart POST, so it works without JavaScript;
 * with it, the faculty list follows the chosen university and the city updates live.
 */
export function ListingForm({ profile, state }: Props) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const posting = navigation.state === "submitting";
  const values = state?.values ?? {};
  const errors = state?.errors ?? {};
  const [universityName, setUniversityName] = useState(values.university ?? "");
  const [facultyName, setFacultyName] = useState(values.faculty || DEFAULT_FACULTY);
  const [mapLink, setMapLink] = useState(values.mapLink ?? "");
  const [hydrated, setHydrated] = useState(false);
  // The server renders every faculty (usable without JavaScript); once hydrated, only the chosen university's.
  useEffect(() => setHydrated(true), []);

  const university = findUniversity(universityName);
  const city = university ? cityName(cityForFaculty(university, facultyName)) : "";
  const message = (field: ListingFormField) => (errors[field] ? t(errors[field].key, errors[field].values) : undefined);
  const errorFields = Object.keys(errors) as ListingFormField[];
  const required = t("common.form.required");
  const validMapLink = mapLink.trim() !== "" && isMapLink(mapLink);

  return (
    <Form method="post" encType="multipart/form-data" noValidate className="space-y-5" aria-describedby={state ? "listing-form-errors" : undefined}>
      {state ? (
        <Banner variant="error" id="listing-form-errors" title={t("listingForm.errorTitle")} tabIndex={-1}>
          <p>{t(state.first.key, state.first.values)}</p>
          {errorFields.length > 1 ? (
            <ul className="mt-2 list-disc pl-5">
              {errorFields.map((field) => (
                <li key={field}>
                  <a href={`#listing-${field}`} className="underline">
                    {message(field)}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </Banner>
      ) : null}

      <FormField id="listing-title" name="title" label={t("listingForm.title")} hint={t("listingForm.titleHint")} error={message("title")} required requiredLabel={required}>
        {(control) => <input {...control} type="text" maxLength={LISTING_LIMITS.title} defaultValue={values.title} className={inputClasses} />}
      </FormField>

      <FormField id="listing-description" name="description" label={t("listingForm.description")} error={message("description")} required requiredLabel={required}>
        {(control) => <textarea {...control} rows={6} maxLength={LISTING_LIMITS.description} defaultValue={values.description} className={inputClasses} />}
      </FormField>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="listing-price" name="price" label={t("listingForm.price")} error={message("price")} required requiredLabel={required}>
          {(control) => <input {...control} type="text" inputMode="numeric" pattern="[0-9]*" defaultValue={values.price} className={inputClasses} />}
        </FormField>
        <FormField id="listing-keymoneyFee" name="keymoneyFee" label={t("listingForm.keymoneyFee")} hint={t("listingForm.keymoneyHint")} error={message("keymoneyFee")}>
          {(control) => <input {...control} type="text" inputMode="numeric" pattern="[0-9]*" defaultValue={values.keymoneyFee} className={inputClasses} />}
        </FormField>
      </div>

      <FormField id="listing-university" name="university" label={t("listingForm.university")} error={message("university")} required requiredLabel={required}>
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
                {u.name}
              </option>
            ))}
          </select>
        )}
      </FormField>

      <FormField id="listing-faculty" name="faculty" label={t("listingForm.faculty")} error={message("faculty")}>
        {(control) => (
          <select {...control} value={facultyName} onChange={(event) => setFacultyName(event.currentTarget.value)} className={selectClasses}>
            <option value={DEFAULT_FACULTY}>{DEFAULT_FACULTY}</option>
            {hydrated && university
              ? university.faculties
                  .filter((f) => f.name !== DEFAULT_FACULTY)
                  .map((f) => (
                    <option key={f.id} value={f.name}>
                      {f.name}
                    </option>
                  ))
              : UNIVERSITIES.filter((u) => u.faculties.some((f) => f.name !== DEFAULT_FACULTY)).map((u) => (
                  <optgroup key={u.id} label={u.name}>
                    {u.faculties
                      .filter((f) => f.name !== DEFAULT_FACULTY)
                      .map((f) => (
                        <option key={f.id} value={f.name}>
                          {f.name}
                        </option>
                      ))}
                  </optgroup>
                ))}
          </select>
        )}
      </FormField>

      <FormField id="listing-city" name="" label={t("listingForm.city")} hint={t("listingForm.cityHint")}>
        {(control) => (
          <input id={control.id} aria-describedby={control["aria-describedby"]} type="text" readOnly value={city || t("listingForm.cityUnknown")} className={`${inputClasses} bg-slate-100`} />
        )}
      </FormField>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="listing-propertyType" name="propertyType" label={t("listingForm.propertyType")} error={message("propertyType")} required requiredLabel={required}>
          {(control) => (
            <select {...control} defaultValue={values.propertyType || "single"} className={selectClasses}>
              {PROPERTY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`listingForm.propertyTypes.${type}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField id="listing-gender" name="gender" label={t("listingForm.gender")} error={message("gender")}>
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
              <input type="checkbox" name="amenities" value={amenity} defaultChecked={state?.amenities.includes(amenity)} className="h-5 w-5 accent-brand-700" />
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

      <FormField id="listing-mapLink" name="mapLink" label={t("listingForm.mapLink")} hint={t("listingForm.mapLinkHint")} error={message("mapLink")}>
        {(control) => (
          <div className="flex flex-wrap items-center gap-2">
            <input
              {...control}
              type="url"
              inputMode="url"
              maxLength={LISTING_LIMITS.mapLink}
              value={mapLink}
              onChange={(event) => setMapLink(event.currentTarget.value)}
              className={`${inputClasses} flex-1`}
            />
            {validMapLink ? (
              <a href={mapLink.trim()} target="_blank" rel="noopener noreferrer" className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-4 font-semibold text-brand-800 underline">
                {t("listingForm.testLink")}
              </a>
            ) : null}
          </div>
        )}
      </FormField>
      {validMapLink && hydrated ? (
        <p role="status" className="-mt-3 text-sm text-green-800">
          {t("listingForm.mapLinkValid")}
        </p>
      ) : null}

      <FormField id="listing-location" name="location" label={t("listingForm.location")} hint={t("listingForm.locationHint")} error={message("location")}>
        {(control) => <input {...control} type="text" maxLength={LISTING_LIMITS.location} defaultValue={values.location} className={inputClasses} />}
      </FormField>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="listing-contactName" name="contactName" label={t("listingForm.contactName")} error={message("contactName")} required requiredLabel={required}>
          {(control) => <input {...control} type="text" autoComplete="name" maxLength={LISTING_LIMITS.name} defaultValue={values.contactName ?? profile.name} className={inputClasses} />}
        </FormField>
        <FormField id="listing-contactPhone" name="contactPhone" label={t("listingForm.contactPhone")} error={message("contactPhone")} required requiredLabel={required}>
          {(control) => <input {...control} type="tel" autoComplete="tel" maxLength={LISTING_LIMITS.phone} defaultValue={values.contactPhone ?? profile.phone} className={inputClasses} />}
        </FormField>
      </div>

      <FormField id="listing-photos" name="photos" label={t("listingForm.photos")} hint={t("listingForm.photosHint")} error={message("photos")} required requiredLabel={required}>
        {(control) => <input {...control} type="file" accept="image/*" multiple className={`${inputClasses} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-2`} />}
      </FormField>

      <Button type="submit" size="lg" disabled={posting}>
        {posting ? t("listingForm.submitting") : t("listingForm.submit")}
      </Button>
    </Form>
  );
}
