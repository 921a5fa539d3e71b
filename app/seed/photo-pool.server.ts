import sharp from "sharp";
import { type ProcessedPhoto, processPhoto } from "~/models/photo.server";
import { SCENES, type SceneKind, sceneSvg } from "./scenes";

export type PoolPhoto = ProcessedPhoto & { kind: SceneKind };

let pool: Promise<PoolPhoto[]> | undefined;

/**
 * The demo pictures, drawn once per process and kept in memory (about 1 MB):
 * each goes through the same pipeline as an upload, so seeded photos look
 * exactly like real ones to the rest of the app.
 */
export function demoPhotoPool(): Promise<PoolPhoto[]> {
  pool ??= renderPool().catch((error: unknown) => {
    pool = undefined;
    throw error;
  });
  return pool;
}

async function renderPool(): Promise<PoolPhoto[]> {
  return Promise.all(
    SCENES.map(async (scene) => {
      const png = await sharp(Buffer.from(sceneSvg(scene)))
        .png({ compressionLevel: 1 })
        .toBuffer();
      const processed = await processPhoto(png);
      if (!processed.ok) throw new Error(`Demo picture ${scene.kind} could not be processed: ${processed.code}`);
      return { kind: scene.kind, variants: processed.variants, fingerprint: processed.fingerprint };
    }),
  );
}
