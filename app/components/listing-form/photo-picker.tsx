import { inputClasses } from "~/components/ui/form-field";

/** A photo the listing already has (edit form). */
export type ExistingPhoto = { id: string; url: string; alt: string };

/** What the form needs to know to block submitting (SPEC.md section 5 "Post ad form"). */
export type PhotoPickerState = { uploading: boolean; hasErrors: boolean; count: number };

export type PhotoPickerProps = {
  /** id of the file input; the form's label points here. */
  id: string;
  /** aria-describedby of the FormField (hint and error). */
  describedBy?: string;
  invalid?: boolean;
  /** Photos already attached (edit). Each has a checkbox named "removePhotos" (value: photo id). */
  existing?: ExistingPhoto[];
  /** Called whenever uploads start, finish or fail (JavaScript only). */
  onStateChange?: (state: PhotoPickerState) => void;
};

/**
 * The photo field of the post and edit forms. Contract with the server
 * (app/routes/dashboard.listings.*):
 * - "photos": files posted with the form (works without JavaScript);
 * - "uploadIds": ids of photos already uploaded by the browser (POST /dashboard/photos);
 * - "removePhotos": ids of existing photos to remove (edit).
 */
export function PhotoPicker({ id, describedBy, invalid, existing = [] }: PhotoPickerProps) {
  return (
    <div className="space-y-3">
      {existing.length > 0 ? (
        <ul className="flex flex-wrap gap-3">
          {existing.map((photo) => (
            <li key={photo.id} className="w-32">
              <img src={photo.url} alt={photo.alt} width={128} height={96} className="h-24 w-32 rounded object-cover" />
              <label className="mt-1 flex min-h-11 items-center gap-2 text-sm">
                <input type="checkbox" name="removePhotos" value={photo.id} className="h-5 w-5 accent-brand-700" />
                Remove
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        id={id}
        name="photos"
        type="file"
        accept="image/*"
        multiple
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className={`${inputClasses} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-2`}
      />
    </div>
  );
}
