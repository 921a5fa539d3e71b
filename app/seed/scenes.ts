/**
 * Simple illustrated photos for demo listings, drawn as SVG so nothing is
 * downloaded and nobody's real home is shown. 1200×900 (4:3), no text.
 */

export const SCENE_WIDTH = 1200;
export const SCENE_HEIGHT = 900;

type Palette = {
  wall: string;
  sideWall: string;
  ceiling: string;
  floor: string;
  floorLine: string;
  sheet: string;
  blanket: string;
  wood: string;
  curtain: string;
};

const PALETTES: Palette[] = [
  {
    wall: "#f3e9d2",
    sideWall: "#e4d6b8",
    ceiling: "#fbf6ea",
    floor: "#c98b6b",
    floorLine: "#b5775a",
    sheet: "#ffffff",
    blanket: "#3f7f8c",
    wood: "#8a5a3b",
    curtain: "#d9a441",
  },
  {
    wall: "#d8efe4",
    sideWall: "#c2e0d2",
    ceiling: "#f1faf5",
    floor: "#b9bcc0",
    floorLine: "#a2a5aa",
    sheet: "#f7f7f2",
    blanket: "#c0504d",
    wood: "#6d4c33",
    curtain: "#5b8fb9",
  },
  {
    wall: "#dbe8f5",
    sideWall: "#c5d6ea",
    ceiling: "#f2f7fc",
    floor: "#b07a4f",
    floorLine: "#966442",
    sheet: "#fdfdfd",
    blanket: "#e3a13b",
    wood: "#5a3d2b",
    curtain: "#8fb996",
  },
  {
    wall: "#f6dfcf",
    sideWall: "#ebcbb5",
    ceiling: "#fcf1e9",
    floor: "#e3e3e0",
    floorLine: "#cfcfca",
    sheet: "#ffffff",
    blanket: "#5b6abf",
    wood: "#9c6b43",
    curtain: "#c96f53",
  },
  {
    wall: "#e6def0",
    sideWall: "#d4c8e3",
    ceiling: "#f6f2fa",
    floor: "#a9856a",
    floorLine: "#927058",
    sheet: "#fbfbfb",
    blanket: "#2e8b57",
    wood: "#704b35",
    curtain: "#e0b0c8",
  },
  {
    wall: "#f7f0c6",
    sideWall: "#e9dfa8",
    ceiling: "#fdfbe9",
    floor: "#9fa7a0",
    floorLine: "#8a928b",
    sheet: "#ffffff",
    blanket: "#8e4f8c",
    wood: "#7a5230",
    curtain: "#4f9a94",
  },
];

export type SceneKind = "room" | "room-wardrobe" | "shared" | "bunk" | "house" | "kitchen";

export type Scene = { kind: SceneKind; palette: number; mirrored: boolean };

/** The twelve demo pictures: mostly rooms, a few houses and kitchens. */
export const SCENES: readonly Scene[] = [
  { kind: "room", palette: 0, mirrored: false },
  { kind: "room-wardrobe", palette: 1, mirrored: true },
  { kind: "room", palette: 2, mirrored: true },
  { kind: "room-wardrobe", palette: 3, mirrored: false },
  { kind: "room", palette: 4, mirrored: false },
  { kind: "shared", palette: 5, mirrored: false },
  { kind: "shared", palette: 2, mirrored: false },
  { kind: "bunk", palette: 1, mirrored: false },
  { kind: "bunk", palette: 4, mirrored: true },
  { kind: "house", palette: 0, mirrored: false },
  { kind: "house", palette: 3, mirrored: true },
  { kind: "kitchen", palette: 5, mirrored: false },
];

function shell(p: Palette): string {
  const tiles: string[] = [];
  for (let i = 0; i <= 8; i++) {
    tiles.push(`<line x1="${140 + i * 115}" y1="640" x2="${i * 150}" y2="900"/>`);
  }
  for (const y of [672, 716, 776, 852]) {
    const t = (y - 640) / 260;
    tiles.push(`<line x1="${140 - 140 * t}" y1="${y}" x2="${1060 + 140 * t}" y2="${y}"/>`);
  }
  return `
  <rect width="1200" height="900" fill="${p.wall}"/>
  <polygon points="0,0 1200,0 1060,80 140,80" fill="${p.ceiling}"/>
  <polygon points="0,0 140,80 140,640 0,900" fill="${p.sideWall}"/>
  <polygon points="1200,0 1060,80 1060,640 1200,900" fill="${p.sideWall}"/>
  <polygon points="140,640 1060,640 1200,900 0,900" fill="${p.floor}"/>
  <g stroke="${p.floorLine}" stroke-width="3">${tiles.join("")}</g>
  <rect x="140" y="622" width="920" height="18" fill="${p.sideWall}"/>`;
}

function windowOnWall(p: Palette, x: number): string {
  return `
  <rect x="${x - 40}" y="150" width="360" height="14" rx="7" fill="${p.wood}"/>
  <rect x="${x}" y="170" width="280" height="230" fill="url(#sky)" stroke="#ffffff" stroke-width="12"/>
  <ellipse cx="${x + 80}" cy="380" rx="90" ry="40" fill="#7cb36b"/>
  <ellipse cx="${x + 210}" cy="390" rx="80" ry="30" fill="#5e9c55"/>
  <line x1="${x + 140}" y1="170" x2="${x + 140}" y2="400" stroke="#ffffff" stroke-width="10"/>
  <line x1="${x}" y1="285" x2="${x + 280}" y2="285" stroke="#ffffff" stroke-width="8"/>
  <path d="M${x - 40},164 h70 q-10,130 20,270 h-90 z" fill="${p.curtain}"/>
  <path d="M${x + 320},164 h-70 q10,130 -20,270 h90 z" fill="${p.curtain}"/>`;
}

function fan(): string {
  return `
  <line x1="600" y1="0" x2="600" y2="40" stroke="#777" stroke-width="6"/>
  <ellipse cx="520" cy="46" rx="80" ry="9" fill="#f4f4f4" stroke="#bbb" stroke-width="2"/>
  <ellipse cx="680" cy="46" rx="80" ry="9" fill="#f4f4f4" stroke="#bbb" stroke-width="2"/>
  <circle cx="600" cy="46" r="16" fill="#ddd" stroke="#aaa" stroke-width="2"/>`;
}

function bed(p: Palette, x: number, width: number): string {
  return `
  <rect x="${x}" y="440" width="${width}" height="170" rx="10" fill="${p.wood}"/>
  <rect x="${x - 20}" y="600" width="${width + 40}" height="90" rx="8" fill="${p.wood}"/>
  <polygon points="${x + 10},540 ${x + width - 10},540 ${x + width + 30},620 ${x - 30},620" fill="${p.sheet}"/>
  <rect x="${x - 30}" y="620" width="${width + 60}" height="40" fill="${p.sheet}"/>
  <ellipse cx="${x + width / 2}" cy="545" rx="${width / 3}" ry="26" fill="#ffffff" stroke="#ddd" stroke-width="3"/>
  <polygon points="${x - 5},580 ${x + width + 5},580 ${x + width + 34},650 ${x - 34},650" fill="${p.blanket}"/>
  <rect x="${x - 34}" y="650" width="${width + 68}" height="26" fill="${p.blanket}" opacity="0.85"/>
  <rect x="${x - 10}" y="690" width="16" height="40" fill="${p.wood}"/>
  <rect x="${x + width - 6}" y="690" width="16" height="40" fill="${p.wood}"/>`;
}

function desk(p: Palette, x: number): string {
  return `
  <rect x="${x}" y="500" width="240" height="18" fill="${p.wood}"/>
  <rect x="${x + 10}" y="518" width="14" height="150" fill="${p.wood}"/>
  <rect x="${x + 216}" y="518" width="14" height="150" fill="${p.wood}"/>
  <rect x="${x + 150}" y="518" width="66" height="90" fill="${p.wood}" opacity="0.85"/>
  <rect x="${x + 60}" y="430" width="110" height="70" rx="4" fill="#3a3f47"/>
  <rect x="${x + 66}" y="436" width="98" height="58" fill="#9cc9e8"/>
  <rect x="${x + 40}" y="495" width="150" height="6" fill="#555"/>
  <rect x="${x + 190}" y="452" width="12" height="48" fill="#c0504d"/>
  <rect x="${x + 204}" y="458" width="12" height="42" fill="#3f7f8c"/>
  <rect x="${x + 218}" y="448" width="10" height="52" fill="#e3a13b"/>
  <path d="M${x + 20},500 v-60 l30,-30" stroke="#444" stroke-width="6" fill="none"/>
  <path d="M${x + 35},405 l30,-5 l5,25 z" fill="#f2c14e"/>
  <rect x="${x + 70}" y="560" width="100" height="16" rx="6" fill="#4a4a4a"/>
  <rect x="${x + 80}" y="500" width="80" height="64" rx="10" fill="#5a5a5a"/>
  <rect x="${x + 78}" y="576" width="10" height="90" fill="#4a4a4a"/>
  <rect x="${x + 152}" y="576" width="10" height="90" fill="#4a4a4a"/>`;
}

function wardrobe(p: Palette, x: number): string {
  return `
  <rect x="${x}" y="250" width="170" height="390" fill="${p.wood}"/>
  <line x1="${x + 85}" y1="262" x2="${x + 85}" y2="628" stroke="#00000033" stroke-width="4"/>
  <rect x="${x + 12}" y="262" width="146" height="366" fill="none" stroke="#00000022" stroke-width="4"/>
  <circle cx="${x + 74}" cy="450" r="6" fill="#d9c07a"/>
  <circle cx="${x + 96}" cy="450" r="6" fill="#d9c07a"/>`;
}

function bunk(p: Palette, x: number): string {
  return `
  <rect x="${x}" y="200" width="16" height="500" fill="${p.wood}"/>
  <rect x="${x + 404}" y="200" width="16" height="500" fill="${p.wood}"/>
  <rect x="${x}" y="360" width="420" height="26" fill="${p.wood}"/>
  <rect x="${x + 16}" y="330" width="388" height="30" fill="${p.sheet}"/>
  <rect x="${x + 150}" y="330" width="254" height="32" fill="${p.blanket}"/>
  <ellipse cx="${x + 80}" cy="326" rx="55" ry="16" fill="#fff" stroke="#ddd" stroke-width="3"/>
  <rect x="${x}" y="600" width="420" height="30" fill="${p.wood}"/>
  <rect x="${x + 16}" y="565" width="388" height="35" fill="${p.sheet}"/>
  <rect x="${x + 150}" y="565" width="254" height="37" fill="${p.blanket}" opacity="0.85"/>
  <ellipse cx="${x + 80}" cy="562" rx="55" ry="16" fill="#fff" stroke="#ddd" stroke-width="3"/>
  <g stroke="${p.wood}" stroke-width="10">
    <line x1="${x + 440}" y1="300" x2="${x + 440}" y2="640"/>
    <line x1="${x + 490}" y1="300" x2="${x + 490}" y2="640"/>
    <line x1="${x + 440}" y1="380" x2="${x + 490}" y2="380"/>
    <line x1="${x + 440}" y1="460" x2="${x + 490}" y2="460"/>
    <line x1="${x + 440}" y1="540" x2="${x + 490}" y2="540"/>
  </g>`;
}

function bedroom(p: Palette, scene: Scene): string {
  let furniture: string;
  if (scene.kind === "shared") {
    furniture =
      bed(p, 190, 300) +
      bed(p, 720, 300) +
      `<rect x="540" y="560" width="120" height="110" fill="${p.wood}"/><rect x="555" y="520" width="30" height="40" fill="#f2c14e"/>`;
  } else if (scene.kind === "bunk") {
    furniture = bunk(p, 180) + bed(p, 820, 200);
  } else {
    furniture = bed(p, 200, 360) + desk(p, 760) + (scene.kind === "room-wardrobe" ? wardrobe(p, 600) : "");
  }
  // Keep the window clear of tall furniture (which is mirrored with the scene).
  let windowX = 460;
  if (scene.kind === "room-wardrobe") windowX = 220;
  if (scene.kind === "bunk") windowX = scene.mirrored ? 240 : 700;
  const flip = scene.mirrored ? ` transform="translate(1200 0) scale(-1 1)"` : "";
  return `${shell(p) + windowOnWall(p, windowX) + fan()}<g${flip}>${furniture}</g>`;
}

function kitchen(p: Palette): string {
  return (
    shell(p) +
    windowOnWall(p, 460) +
    `
  <rect x="140" y="470" width="920" height="170" fill="${p.wood}"/>
  <rect x="130" y="450" width="940" height="24" fill="#d8d4cc"/>
  <g stroke="#00000033" stroke-width="4" fill="none">
    <rect x="160" y="490" width="200" height="130"/><rect x="380" y="490" width="200" height="130"/>
    <rect x="620" y="490" width="200" height="130"/><rect x="840" y="490" width="200" height="130"/>
  </g>
  <rect x="200" y="420" width="220" height="30" rx="4" fill="#3a3a3a"/>
  <circle cx="260" cy="430" r="22" fill="#555"/><circle cx="360" cy="430" r="22" fill="#555"/>
  <path d="M240,410 h60 v-40 h-60 z" fill="#b0b7bf"/>
  <rect x="700" y="440" width="170" height="14" rx="6" fill="#9aa3ab"/>
  <path d="M785,440 v-50 h30" stroke="#9aa3ab" stroke-width="8" fill="none"/>
  <rect x="900" y="220" width="150" height="420" rx="10" fill="#e9eef2" stroke="#c9d0d6" stroke-width="4"/>
  <line x1="900" y1="360" x2="1050" y2="360" stroke="#c9d0d6" stroke-width="4"/>
  <rect x="1020" y="260" width="8" height="70" rx="4" fill="#9aa3ab"/>`
  );
}

function palm(x: number, scale: number): string {
  return `<g transform="translate(${x} 0) scale(${scale} 1)">
    <path d="M0,760 q30,-200 10,-440" stroke="#8b6b4a" stroke-width="22" fill="none"/>
    <g fill="#3f8f4a">
      <path d="M10,320 q-120,-40 -190,40 q100,-30 190,-40 z"/>
      <path d="M10,320 q120,-40 190,40 q-100,-30 -190,-40 z"/>
      <path d="M10,320 q-60,-110 -170,-110 q100,30 170,110 z"/>
      <path d="M10,320 q60,-110 170,-110 q-100,30 -170,110 z"/>
      <path d="M10,320 q-10,-120 30,-170 q-10,80 -30,170 z"/>
    </g>
  </g>`;
}

function house(p: Palette, scene: Scene): string {
  const flip = scene.mirrored ? ` transform="translate(1200 0) scale(-1 1)"` : "";
  return `
  <rect width="1200" height="900" fill="url(#sky)"/>
  <circle cx="1020" cy="140" r="60" fill="#fff3c4"/>
  <rect y="700" width="1200" height="200" fill="#7cb36b"/>
  <rect y="760" width="1200" height="140" fill="#b9a58a"/>
  <g${flip}>
    <rect x="260" y="360" width="640" height="340" fill="${p.wall}"/>
    <rect x="260" y="520" width="640" height="12" fill="${p.sideWall}"/>
    <polygon points="220,370 580,200 940,370" fill="#b5523b"/>
    <polygon points="220,370 940,370 920,390 240,390" fill="#8f3f2d"/>
    <g fill="url(#sky)" stroke="#ffffff" stroke-width="10">
      <rect x="320" y="420" width="120" height="80"/><rect x="720" y="420" width="120" height="80"/>
      <rect x="320" y="570" width="120" height="90"/><rect x="720" y="570" width="120" height="90"/>
    </g>
    <rect x="520" y="560" width="120" height="140" fill="${p.wood}"/>
    <circle cx="620" cy="635" r="6" fill="#d9c07a"/>
    <rect x="500" y="690" width="160" height="14" fill="#cfc6b6"/>
    <rect x="0" y="660" width="470" height="70" fill="#e9e2d3"/>
    <rect x="690" y="660" width="510" height="70" fill="#e9e2d3"/>
    <g stroke="#4a4a4a" stroke-width="8">
      <line x1="480" y1="665" x2="480" y2="730"/><line x1="520" y1="665" x2="520" y2="730"/>
      <line x1="640" y1="665" x2="640" y2="730"/><line x1="680" y1="665" x2="680" y2="730"/>
      <line x1="470" y1="680" x2="690" y2="680"/>
    </g>
    ${palm(1040, 1)}
    ${palm(120, -0.9)}
  </g>`;
}

export function sceneSvg(scene: Scene): string {
  const p = PALETTES[scene.palette % PALETTES.length];
  let body: string;
  if (scene.kind === "house") body = house(p, scene);
  else if (scene.kind === "kitchen") body = kitchen(p);
  else body = bedroom(p, scene);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SCENE_WIDTH}" height="${SCENE_HEIGHT}" viewBox="0 0 ${SCENE_WIDTH} ${SCENE_HEIGHT}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#7cc4f2"/><stop offset="1" stop-color="#e3f4ff"/>
    </linearGradient>
  </defs>${body}
</svg>`;
}
