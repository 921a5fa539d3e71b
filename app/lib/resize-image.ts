/**
 * Browser-side resizing before upload: fit inside 1200x1200 as JPEG at quality 0.8; if that is over
 * 2MB, redo at 800x800 and quality 0.6. The server checks and re-encodes again.
 */
export type ResizeStep = { maxSide: number; quality: number };

export const RESIZE_STEPS: readonly ResizeStep[] = [
  { maxSide: 1200, quality: 0.8 },
  { maxSide: 800, quality: 0.6 },
];
export const MAX_COMPRESSED_BYTES = 2 * 1024 * 1024;

/** The size that fits inside maxSide x maxSide keeping the aspect ratio; never enlarges. */
export function fitInside(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The step to try after `step` produced `bytes`, or null when the result is kept. */
export function nextResizeStep(step: number, bytes: number): number | null {
  return bytes > MAX_COMPRESSED_BYTES && step + 1 < RESIZE_STEPS.length ? step + 1 : null;
}

async function decode(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new Error("Failed to load image");
  }
}

function encode(bitmap: ImageBitmap, { maxSide, quality }: ResizeStep): Promise<Blob> {
  const { width, height } = fitInside(bitmap.width, bitmap.height, maxSide);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("Canvas context not available");
  // JPEG has no transparency: a transparent PNG becomes white, not black.
  context.fillStyle = "#fff";
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("Failed to compress image"))),
      "image/jpeg",
      quality,
    );
  });
}

/** Resizes and re-encodes a picked image in the browser (throws when the browser cannot read it). */
export async function resizeImage(file: Blob): Promise<Blob> {
  const bitmap = await decode(file);
  try {
    let step = 0;
    for (;;) {
      const blob = await encode(bitmap, RESIZE_STEPS[step]);
      const next = nextResizeStep(step, blob.size);
      if (next === null) return blob;
      step = next;
    }
  } finally {
    bitmap.close();
  }
}
