import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { checkPickedFiles, MAX_PHOTO_BYTES, PhotoPicker } from "./photo-picker";

const jpeg = (size = 200_000) => ({ type: "image/jpeg", size });

describe("checkPickedFiles", () => {
  it("accepts images under 5MB while there is room", () => {
    expect(checkPickedFiles([jpeg(), jpeg()], 3)).toEqual({ accepted: [0, 1], errors: [] });
  });

  it("names each refused file by its number in the pick", () => {
    const text = { type: "text/plain", size: 20 };
    const { accepted, errors } = checkPickedFiles([text, jpeg(MAX_PHOTO_BYTES), jpeg(MAX_PHOTO_BYTES - 1)], 3);
    expect(accepted).toEqual([2]);
    expect(errors).toEqual([
      { key: "photos.errors.type", values: { n: 1 } },
      { key: "photos.errors.size", values: { n: 2 } },
    ]);
  });

  it("drops the files beyond the free places with 'Maximum 3 images allowed'", () => {
    expect(checkPickedFiles([jpeg(), jpeg(), jpeg(), jpeg()], 3)).toEqual({
      accepted: [0, 1, 2],
      errors: [{ key: "photos.errors.count" }],
    });
    expect(checkPickedFiles([jpeg(), jpeg()], 1)).toEqual({ accepted: [0], errors: [{ key: "photos.errors.count" }] });
    expect(checkPickedFiles([jpeg()], 0)).toEqual({ accepted: [], errors: [{ key: "photos.errors.count" }] });
  });
});

describe("PhotoPicker without JavaScript", () => {
  it("is a plain file input named photos, posting with the form", () => {
    const html = renderToString(<PhotoPicker id="listing-photos" describedBy="listing-photos-hint" invalid />);
    const input = /<input[^>]*type="file"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain('name="photos"');
    expect(input).toContain('id="listing-photos"');
    expect(input).toContain('accept="image/*"');
    expect(input).toContain("multiple");
    expect(input).toContain('aria-describedby="listing-photos-hint"');
    expect(input).toContain('aria-invalid="true"');
    expect(html).not.toContain("uploadIds");
  });

  it("shows existing photos with a Remove checkbox each (edit)", () => {
    const existing = [
      { id: "p1", url: "/photos/p1-400.webp", alt: "Room – photo 1" },
      { id: "p2", url: "/photos/p2-400.webp", alt: "Room – photo 2" },
    ];
    const html = renderToString(<PhotoPicker id="listing-photos" existing={existing} />);
    expect(
      html
        .match(/<input[^>]*type="checkbox"[^>]*name="removePhotos"[^>]*>/g)
        ?.map((m) => /value="([^"]+)"/.exec(m)?.[1]),
    ).toEqual(["p1", "p2"]);
    expect(html).toContain('alt="Room – photo 2"');
    expect(html).toContain(">Remove</label>");
  });
});
