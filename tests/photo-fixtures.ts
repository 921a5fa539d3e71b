import sharp from "sharp";
import { createRandom, type Random } from "~/seed/random";
import { SCENES, sceneSvg } from "~/seed/scenes";

/**
 * The labelled set of photo fingerprints (ADR 074): generated pictures that
 * look like photos (random rooms with texture, noise, uneven light; and the
 * seed's drawn scenes with the same grain), and the edits a copier makes.
 */

export const PHOTO_WIDTH = 480;
export const PHOTO_HEIGHT = 360;

const hex = (rand: Random) =>
  `#${Array.from({ length: 3 }, () => rand.int(30, 235).toString(16).padStart(2, "0")).join("")}`;

/** A room drawn at random: walls, floor, a window, furniture and things on the walls, all placed anew. */
function randomRoomSvg(rand: Random): string {
  // Drawn at 640×480, then scaled to the photo's size.
  const w = 640;
  const h = 480;
  const horizon = rand.int(Math.round(h * 0.45), Math.round(h * 0.8));
  const left = rand.int(0, Math.round(w * 0.3));
  const right = rand.int(Math.round(w * 0.7), w);
  const parts: string[] = [
    `<rect width="${w}" height="${h}" fill="${hex(rand)}"/>`,
    `<polygon points="0,0 ${left},${rand.int(10, 80)} ${left},${horizon} 0,${h}" fill="${hex(rand)}"/>`,
    `<polygon points="${w},0 ${right},${rand.int(10, 80)} ${right},${horizon} ${w},${h}" fill="${hex(rand)}"/>`,
    `<polygon points="${left},${horizon} ${right},${horizon} ${w},${h} 0,${h}" fill="${hex(rand)}"/>`,
  ];
  for (let i = 0, n = rand.int(0, 10); i < n; i++) {
    const y = horizon + ((h - horizon) * (i + 1)) / (n + 1);
    parts.push(`<line x1="0" y1="${y}" x2="${w}" y2="${y}" stroke="${hex(rand)}" stroke-width="2"/>`);
  }
  if (rand.chance(0.8)) {
    const x = rand.int(left, right - 120);
    const y = rand.int(40, horizon - 160);
    parts.push(
      `<rect x="${x}" y="${y}" width="${rand.int(80, 200)}" height="${rand.int(70, 150)}" fill="url(#sky)" stroke="#fff" stroke-width="${rand.int(4, 10)}"/>`,
    );
  }
  for (let i = 0, n = rand.int(3, 8); i < n; i++) {
    const width = rand.int(40, 260);
    const height = rand.int(30, 220);
    const x = rand.int(-20, w - width + 20);
    const y = rand.int(Math.round(h * 0.2), h - height);
    const shape = rand.int(0, 2);
    if (shape === 0)
      parts.push(
        `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="${rand.int(0, 12)}" fill="${hex(rand)}"/>`,
      );
    else if (shape === 1)
      parts.push(
        `<ellipse cx="${x + width / 2}" cy="${y + height / 2}" rx="${width / 2}" ry="${height / 3}" fill="${hex(rand)}"/>`,
      );
    else
      parts.push(
        `<polygon points="${x},${y + height} ${x + width},${y + height} ${x + width - rand.int(0, 40)},${y} ${x + rand.int(0, 40)},${y}" fill="${hex(rand)}"/>`,
      );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${hex(rand)}"/><stop offset="1" stop-color="#f4f8ff"/>
  </linearGradient></defs>${parts.join("")}</svg>`;
}

/**
 * Camera-like pixels from a drawing: light falling off from one side, a soft
 * blur, sensor grain, saved as a JPEG the way a phone would.
 */
async function asPhoto(svg: string, rand: Random): Promise<Buffer> {
  const { data, info } = await sharp(Buffer.from(svg))
    .resize(PHOTO_WIDTH, PHOTO_HEIGHT, { fit: "fill" })
    .blur(rand.next() * 1.2 + 0.3)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const lightX = rand.next() * PHOTO_WIDTH;
  const lightY = rand.next() * PHOTO_HEIGHT * 0.5;
  const reach = PHOTO_WIDTH * (0.8 + rand.next());
  const grain = 6 + rand.next() * 10;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const light = 1.1 - 0.35 * Math.min(1, Math.hypot(x - lightX, y - lightY) / reach);
      const noise = (rand.next() + rand.next() + rand.next() - 1.5) * grain;
      for (let c = 0; c < 3; c++) {
        const i = (y * info.width + x) * 3 + c;
        data[i] = Math.max(0, Math.min(255, data[i] * light + noise));
      }
    }
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export type LabelledPhoto = { name: string; data: Buffer };

/** `randomRooms` generated rooms, then the seed's twelve scenes made to look like photos too. */
export async function originalPhotos(randomRooms: number, seed = 7401): Promise<LabelledPhoto[]> {
  const rand = createRandom(seed);
  const svgs = [
    ...Array.from({ length: randomRooms }, (_, i) => ({ name: `room-${i + 1}`, svg: randomRoomSvg(rand) })),
    ...SCENES.map((scene, i) => ({ name: `scene-${i + 1}-${scene.kind}`, svg: sceneSvg(scene) })),
  ];
  const photos: LabelledPhoto[] = [];
  for (const { name, svg } of svgs) photos.push({ name, data: await asPhoto(svg, rand) });
  return photos;
}

/** A small mark in the bottom right corner, as a copier stamps their own name and number on. */
function watermarkSvg(width: number, height: number): Buffer {
  const w = Math.round(width * 0.3);
  const h = Math.round(height * 0.07);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
  <rect width="${w}" height="${h}" rx="6" fill="#000" fill-opacity="0.45"/>
  <text x="8" y="${Math.round(h * 0.72)}" font-family="sans-serif" font-size="${Math.round(h * 0.6)}" fill="#fff">Rooms 077 123 4567</text>
</svg>`);
}

export type Edit = { name: string; apply: (photo: Buffer) => Promise<Buffer> };

/** The edits a copy must survive (the mirror only through the mirrored hash). */
export const EDITS: Edit[] = [
  { name: "JPEG quality 60", apply: (p) => sharp(p).jpeg({ quality: 60 }).toBuffer() },
  {
    name: "half size",
    apply: (p) =>
      sharp(p)
        .resize({ width: PHOTO_WIDTH / 2 })
        .toBuffer(),
  },
  { name: "brightness +20%", apply: (p) => sharp(p).modulate({ brightness: 1.2 }).jpeg().toBuffer() },
  { name: "brightness -20%", apply: (p) => sharp(p).modulate({ brightness: 0.8 }).jpeg().toBuffer() },
  {
    name: "5% cropped",
    apply: (p) =>
      sharp(p)
        .extract({
          left: Math.round(PHOTO_WIDTH * 0.025),
          top: Math.round(PHOTO_HEIGHT * 0.025),
          width: Math.round(PHOTO_WIDTH * 0.95),
          height: Math.round(PHOTO_HEIGHT * 0.95),
        })
        .jpeg()
        .toBuffer(),
  },
  {
    name: "5% cropped off one corner",
    apply: (p) =>
      sharp(p)
        .extract({ left: 0, top: 0, width: Math.round(PHOTO_WIDTH * 0.95), height: Math.round(PHOTO_HEIGHT * 0.95) })
        .jpeg()
        .toBuffer(),
  },
  {
    name: "watermarked",
    apply: async (p) => {
      const mark = watermarkSvg(PHOTO_WIDTH, PHOTO_HEIGHT);
      const { width = 0, height = 0 } = await sharp(mark).metadata();
      return sharp(p)
        .composite([{ input: mark, left: PHOTO_WIDTH - width - 10, top: PHOTO_HEIGHT - height - 10 }])
        .jpeg()
        .toBuffer();
    },
  },
  { name: "mirrored", apply: (p) => sharp(p).flop().jpeg().toBuffer() },
];
