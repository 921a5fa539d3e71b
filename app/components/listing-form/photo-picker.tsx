import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { Button, inputClasses } from "~/components/ui/button";
import { type MessageKey, t, useTranslation } from "~/i18n";
import { resizeImage } from "~/lib/resize-image";
import "virtual:catalogue/photos";

/** A photo the listing already has (edit form). */
export type ExistingPhoto = { id: string; url: string; alt: string };

/** What the form needs to know to block submitting. */
export type PhotoPickerState = { uploading: boolean; hasErrors: boolean; count: number };

export type PhotoPickerProps = {
  /** id of the file input; the form's label points here. */
  id: string;
  /** aria-describedby of the FormField (hint and error). */
  describedBy?: string;
  invalid?: boolean;
  /** Photos already attached (edit). Each has a checkbox named "removePhotos" (value: photo id). */
  existing?: ExistingPhoto[];
  /**
   * Photos of this post stored already as the owner's uploads: the files of a post held for its
   * phone code (ADR 076), sent again as "uploadIds" and shown as the picker's own uploads.
   */
  uploaded?: { id: string; url: string }[];
  /** Called whenever uploads start, finish or fail (JavaScript only). */
  onStateChange?: (state: PhotoPickerState) => void;
};

/** Images per ad and the file limit (checked again on the server). */
export const MAX_PHOTOS = 3;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const UPLOAD_URL = "/dashboard/photos";
/** A stalled upload ends with an error the owner can remove, rather than blocking the form for good. */
const UPLOAD_TIMEOUT_MS = 2 * 60 * 1000;

/** A message of the picker: a catalogue key and its values, translated when shown. */
type Message = { key: MessageKey; values?: Record<string, unknown> };

/**
 * Checks picked files in the order the spec does: too many for the
 * free places drops the extras; then each kept file must be an image under 5MB.
 * N in the messages is the file's number in this pick.
 */
export function checkPickedFiles(
  files: { type: string; size: number }[],
  freePlaces: number,
): { accepted: number[]; errors: Message[] } {
  const errors: Message[] = [];
  const considered = Math.max(0, Math.min(files.length, freePlaces));
  if (files.length > considered) errors.push({ key: "photos.errors.count" });
  const accepted: number[] = [];
  for (let i = 0; i < considered; i++) {
    const n = i + 1;
    if (!files[i].type.startsWith("image/")) errors.push({ key: "photos.errors.type", values: { n } });
    else if (files[i].size >= MAX_PHOTO_BYTES) errors.push({ key: "photos.errors.size", values: { n } });
    else accepted.push(i);
  }
  return { accepted, errors };
}

type Upload = {
  key: number;
  /** The file's number in its pick, for "File N: ..." messages. */
  n: number;
  name: string;
  status: "resizing" | "uploading" | "done" | "error";
  /** 0 to 100 while uploading. */
  progress: number;
  preview?: string;
  photo?: { id: string; url: string; width: number; height: number };
  error?: string;
};

/** Sends one file with XMLHttpRequest, which (unlike fetch) reports upload progress. */
function sendPhoto(
  file: Blob,
  onProgress: (percent: number) => void,
): Promise<{ ok: true; photo: NonNullable<Upload["photo"]> } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", UPLOAD_URL);
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as {
        id?: string;
        url?: string;
        width?: number;
        height?: number;
        error?: string;
      };
      if (xhr.status === 201 && body.id && body.url)
        resolve({ ok: true, photo: { id: body.id, url: body.url, width: body.width ?? 0, height: body.height ?? 0 } });
      else resolve({ ok: false, error: body.error ?? t("photos.errors.unavailable") });
    };
    xhr.onerror = xhr.ontimeout = () => resolve({ ok: false, error: t("photos.errors.network") });
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    const form = new FormData();
    form.append("photo", file, "photo.jpg");
    xhr.send(form);
  });
}

/** The resized JPEG, or the original when this browser cannot read it (the server then says why). */
async function prepare(file: File): Promise<{ blob: Blob; readable: boolean }> {
  try {
    return { blob: await resizeImage(file), readable: true };
  } catch {
    return { blob: file, readable: false };
  }
}

let nextKey = 1;

/**
 * The photo field of the post and edit forms. Contract with the server
 * (app/routes/dashboard.listings.*):
 * - "photos": files posted with the form (works without JavaScript);
 * - "uploadIds": ids of photos already uploaded by the browser (POST /dashboard/photos);
 * - "removePhotos": ids of existing photos to remove (edit).
 *
 * With JavaScript, picked files are checked, resized and uploaded at once,
 * each with a progress bar; the file input then sends nothing itself.
 */
export function PhotoPicker({
  id,
  describedBy,
  invalid,
  existing = [],
  uploaded = [],
  onStateChange,
}: PhotoPickerProps) {
  const { t } = useTranslation();
  const [enhanced, setEnhanced] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>(() =>
    uploaded.map((photo, i) => ({
      // Keys of their own, below the picked files' (which count up from 1).
      key: -(i + 1),
      n: i + 1,
      name: "",
      status: "done",
      progress: 100,
      photo: { ...photo, width: 0, height: 0 },
    })),
  );
  const [pickErrors, setPickErrors] = useState<Message[]>([]);
  const [removing, setRemoving] = useState<string[]>([]);
  const [announcement, setAnnouncement] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const previews = useRef(new Set<string>());

  useEffect(() => {
    setEnhanced(true);
    const urls = previews.current;
    // Closing the file chooser fires a bubbling "cancel" at the input, which a
    // surrounding <dialog> would take for Escape and close the whole form.
    const field = input.current;
    const keepDialogOpen = (event: Event) => event.stopPropagation();
    field?.addEventListener("cancel", keepDialogOpen);
    return () => {
      field?.removeEventListener("cancel", keepDialogOpen);
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const kept = existing.length - removing.length;
  const uploading = uploads.some((u) => u.status === "resizing" || u.status === "uploading");
  const hasErrors = uploads.some((u) => u.status === "error");
  const count = kept + uploads.filter((u) => u.status === "done").length;
  const stateKey = `${uploading}|${hasErrors}|${count}`;
  const reported = useRef("");
  useEffect(() => {
    if (!enhanced || reported.current === stateKey) return;
    reported.current = stateKey;
    onStateChange?.({ uploading, hasErrors, count });
  }, [enhanced, stateKey, uploading, hasErrors, count, onStateChange]);

  const update = (key: number, change: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));

  async function start(upload: Upload, file: File) {
    const { blob, readable } = await prepare(file);
    // An unreadable file gets no preview (a broken image); the server's message says why.
    const preview = readable ? URL.createObjectURL(blob) : undefined;
    if (preview) previews.current.add(preview);
    update(upload.key, { status: "uploading", preview });
    const result = await sendPhoto(blob, (progress) => update(upload.key, { progress }));
    if (result.ok) {
      update(upload.key, { status: "done", progress: 100, photo: result.photo });
      setAnnouncement(t("photos.uploadedStatus", { n: upload.n }));
    } else {
      update(upload.key, { status: "error", error: result.error });
    }
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    // The picked files travel by upload now, never again with the form.
    event.target.value = "";
    if (files.length === 0) return;
    const taken = kept + uploads.filter((u) => u.status !== "error").length;
    const { accepted, errors } = checkPickedFiles(files, MAX_PHOTOS - taken);
    setPickErrors(errors);
    const added: Upload[] = accepted.map((i) => ({
      key: nextKey++,
      n: i + 1,
      name: files[i].name,
      status: "resizing",
      progress: 0,
    }));
    if (added.length === 0) return;
    setUploads((all) => [...all, ...added]);
    setAnnouncement(t("photos.uploadingStatus", { count: added.length }));
    added.forEach((upload, i) => void start(upload, files[accepted[i]]));
  }

  function remove(upload: Upload) {
    setUploads((all) => all.filter((u) => u.key !== upload.key));
    if (upload.preview) {
      URL.revokeObjectURL(upload.preview);
      previews.current.delete(upload.preview);
    }
    // Best effort: an upload left behind is removed by the daily clean-up.
    if (upload.photo) void fetch(`${UPLOAD_URL}/${upload.photo.id}/delete`, { method: "POST" }).catch(() => undefined);
    setAnnouncement(t("photos.removedStatus"));
    input.current?.focus();
  }

  const toggleExisting = (photoId: string, checked: boolean) =>
    setRemoving((ids) => (checked ? [...ids, photoId] : ids.filter((x) => x !== photoId)));

  return (
    <div className="space-y-3">
      {existing.length > 0 ? (
        <ul className="flex flex-wrap gap-3">
          {existing.map((photo) => (
            <li key={photo.id} className="w-32">
              <img src={photo.url} alt={photo.alt} width={128} height={96} className="h-24 w-32 rounded object-cover" />
              <label className="mt-1 flex min-h-11 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="removePhotos"
                  value={photo.id}
                  onChange={(e) => toggleExisting(photo.id, e.target.checked)}
                  className="h-5 w-5 accent-brand-700"
                />
                {t("photos.remove")}
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        ref={input}
        id={id}
        name={enhanced ? undefined : "photos"}
        type="file"
        accept="image/*"
        multiple
        onChange={enhanced ? onPick : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className={`${inputClasses} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-2`}
      />
      {pickErrors.length > 0 ? (
        <ul role="alert" className="space-y-1 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {pickErrors.map((m) => (
            <li key={`${m.key}-${String(m.values?.n ?? "")}`}>{t(m.key, m.values)}</li>
          ))}
        </ul>
      ) : null}
      {uploads.length > 0 ? (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {uploads.map((upload, index) => (
            <UploadTile
              key={upload.key}
              upload={upload}
              position={kept + index + 1}
              onRemove={enhanced ? () => remove(upload) : undefined}
            />
          ))}
        </ul>
      ) : null}
      {uploads
        .filter((u) => u.status === "done" && u.photo)
        .map((u) => (
          <input key={u.key} type="hidden" name="uploadIds" value={u.photo!.id} />
        ))}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}

/** One upload; without JavaScript (a kept upload shown by the server) it has no Remove button. */
function UploadTile({ upload, position, onRemove }: { upload: Upload; position: number; onRemove?: () => void }) {
  const { t } = useTranslation();
  const busy = upload.status === "resizing" || upload.status === "uploading";
  const image = upload.status === "done" ? upload.photo?.url : upload.preview;
  return (
    <li
      className={`rounded-lg border p-2 ${upload.status === "error" ? "border-red-300 bg-red-50" : "border-slate-300"}`}
    >
      {image ? (
        <img src={image} alt={t("photos.thumbnailAlt", { n: position })} className="h-24 w-full rounded object-cover" />
      ) : (
        <div className="h-24 w-full rounded bg-slate-100" />
      )}
      <p className="mt-1 truncate text-sm text-slate-700" title={upload.name}>
        {upload.name}
      </p>
      {busy ? (
        <progress
          className="mt-1 h-2 w-full accent-brand-700"
          max={100}
          value={upload.status === "uploading" ? upload.progress : undefined}
          aria-label={t("photos.uploading", { n: upload.n })}
        />
      ) : null}
      {upload.status === "error" ? (
        <p role="alert" className="mt-1 text-sm font-semibold text-red-800">
          {t("photos.errors.file", { n: upload.n, error: upload.error })}
        </p>
      ) : null}
      {busy || !onRemove ? null : (
        <Button
          variant="secondary"
          className="mt-2 w-full"
          onClick={onRemove}
          aria-label={t("photos.removePhoto", { n: position })}
        >
          {t("photos.remove")}
        </Button>
      )}
    </li>
  );
}
