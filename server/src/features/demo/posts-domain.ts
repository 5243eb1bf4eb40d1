/**
 * The demo posts: every seeded creator gets a few photo posts, drawn locally from SVG scenes
 * in the creator's colours, some priced from the post-media steps, some liked and commented
 * on by the seeded fans. Everything is a pure function of the creator's position, so every
 * fresh installation gets the same posts (their times are relative to the seeding moment).
 */

export type Scene = 'sunset' | 'studio' | 'city' | 'waves' | 'bloom';
export const scenes: readonly Scene[] = ['sunset', 'studio', 'city', 'waves', 'bloom'];

/**
 * Portrait 4:5, the shape phones show best, above the 400 px minimum side and big enough for a
 * post card; smaller than a camera picture because every fresh start draws them all.
 */
export const pictureSize = { width: 720, height: 900 } as const;

const captions: Record<Scene, readonly string[]> = {
  sunset: ['Golden hour over the ridge tonight. Worth every step of the climb. #sunset #travel', 'The sky did this for about four minutes and then it was gone. #sunset #goldenhour'],
  studio: ['New set from the studio — lights, backdrop and a lot of coffee. #studio #behindthescenes', 'Testing a new lighting setup. Which version do you like more? #studio'],
  city: ['City lights from the roof after a long day. #citynights #travel', 'Late walk, quiet streets, favourite hour of the week. #citynights'],
  waves: ['Back at the sea. Nothing resets the head like the sound of waves. #ocean #weekend', 'Morning swim, cold water, big smile. #ocean #morning'],
  bloom: ['Spring is finally here and the garden knows it. #spring #bloom', 'Little things that made today better. #bloom #gratitude'],
};

/** Prices (cents) by post position: a free post first, then a mix of free and locked ones. */
const pricePattern: readonly number[] = [0, 95, 0, 320, 0];

const fanComments: readonly string[] = [
  'This is stunning 😍',
  'Love the colours in this one!',
  'Where was this taken?',
  'Made my day, thank you ❤️',
  'Wow. Just wow.',
  'Need more of these!',
];

const creatorReplies: readonly string[] = ['Thank you so much! 🙏', 'So glad you like it!', 'More coming this week, promise.'];

export interface DemoComment {
  /** Index into the seeded fans. */
  fan: number;
  text: string;
  /** Minutes after the post. */
  afterMinutes: number;
  /** The creator's reply, if any, this many minutes after the comment. */
  reply?: { text: string; afterMinutes: number };
}

export interface DemoPost {
  scene: Scene;
  /** Which palette variant of the scene (shapes move between variants). */
  variant: number;
  text: string;
  price: number;
  /** Hours before the seeding moment. */
  hoursAgo: number;
  /** Indexes into the seeded fans. */
  likedBy: number[];
  comments: DemoComment[];
}

/** 3 or 4 posts per creator, cycling through the scenes. */
export function demoPostsOf(creatorIndex: number, fanCount: number): DemoPost[] {
  const count = 3 + (creatorIndex % 2);
  const list: DemoPost[] = [];
  for (let i = 0; i < count; i++) {
    const n = creatorIndex * 5 + i;
    const scene = scenes[n % scenes.length]!;
    const sceneCaptions = captions[scene];
    const likedBy: number[] = [];
    for (let f = 0; f < fanCount; f++) if ((n * 7 + f * 3) % 5 < 3) likedBy.push(f);
    const comments: DemoComment[] = [];
    if (n % 2 === 0 && fanCount > 0) {
      const first = n % fanCount;
      comments.push({
        fan: first,
        text: fanComments[n % fanComments.length]!,
        afterMinutes: 40 + (n % 7) * 10,
        reply: { text: creatorReplies[n % creatorReplies.length]!, afterMinutes: 25 },
      });
      if (n % 4 === 0 && fanCount > 1) {
        comments.push({ fan: (first + 1) % fanCount, text: fanComments[(n + 3) % fanComments.length]!, afterMinutes: 150 });
      }
    }
    list.push({
      scene,
      variant: n,
      text: sceneCaptions[n % sceneCaptions.length]!,
      price: pricePattern[i % pricePattern.length]!,
      // Spread over the past nine days, newest first per creator, creators interleaved.
      hoursAgo: 2 + creatorIndex * 3 + i * 41,
      likedBy,
      comments,
    });
  }
  return list;
}

/** A deterministic number in [0, 1) from an integer (a small hash, not a random source). */
function unit(seed: number): number {
  const x = Math.sin(seed * 12.9898 + 78.233) * 43758.5453;
  return x - Math.floor(x);
}

function mix(a: string, b: string, t: number): string {
  const pa = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  return `#${pa.map((v, i) => Math.round(v + (pb[i]! - v) * t).toString(16).padStart(2, '0')).join('')}`;
}

/** The middle of a creator's gradient, stored as the picture's dominant colour. */
export function dominantColourOf(colors: readonly [string, string]): string {
  return mix(colors[0], colors[1], 0.5);
}

/**
 * An SVG scene on a 1080×1350 canvas. `width`/`height` set the rendered size; the canvas is
 * cropped to fill it (`slice`), so the same scene renders every variant straight from vectors.
 */
export function sceneSvg(scene: Scene, variant: number, colors: readonly [string, string], width: number, height: number): string {
  const [from, to] = colors;
  const r = (k: number) => unit(variant * 31 + k);
  let body: string;
  switch (scene) {
    case 'sunset': {
      const sunX = 300 + r(1) * 480;
      body = `<rect width="1080" height="1350" fill="url(#sky)"/>
<circle cx="${sunX}" cy="760" r="190" fill="#ffd166" fill-opacity="0.92"/>
<polygon points="0,1350 0,980 260,${780 + r(2) * 120} 520,1020 780,${820 + r(3) * 100} 1080,960 1080,1350" fill="${mix(to, '#000000', 0.45)}" fill-opacity="0.9"/>
<polygon points="0,1350 0,1120 340,1000 700,1140 1080,1040 1080,1350" fill="${mix(to, '#000000', 0.7)}"/>`;
      break;
    }
    case 'studio': {
      const circles = [0, 1, 2, 3, 4]
        .map((k) => `<circle cx="${100 + r(k + 10) * 880}" cy="${150 + r(k + 20) * 1050}" r="${90 + r(k + 30) * 200}" fill="#ffffff" fill-opacity="${(0.06 + r(k + 40) * 0.14).toFixed(2)}"/>`)
        .join('');
      body = `<rect width="1080" height="1350" fill="url(#sky)"/>${circles}
<rect x="190" y="260" width="700" height="830" rx="36" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="10"/>
<circle cx="540" cy="600" r="150" fill="${mix(from, '#ffffff', 0.35)}"/>
<rect x="360" y="770" width="360" height="300" rx="150" fill="${mix(from, '#ffffff', 0.35)}"/>`;
      break;
    }
    case 'city': {
      let x = 0;
      let k = 0;
      const buildings: string[] = [];
      while (x < 1080) {
        const w = 90 + r(k + 50) * 110;
        const h = 300 + r(k + 60) * 520;
        buildings.push(`<rect x="${x.toFixed(0)}" y="${(1350 - h).toFixed(0)}" width="${w.toFixed(0)}" height="${h.toFixed(0)}" fill="${mix(to, '#000000', 0.55 + r(k + 70) * 0.3)}"/>`);
        x += w + 6;
        k++;
      }
      body = `<rect width="1080" height="1350" fill="url(#sky)"/>
<circle cx="${220 + r(5) * 640}" cy="260" r="80" fill="#fff7d6" fill-opacity="0.9"/>${buildings.join('')}`;
      break;
    }
    case 'waves': {
      const waves = [0, 1, 2, 3]
        .map((k) => {
          const y = 760 + k * 150;
          const a = 50 + r(k + 80) * 50;
          return `<path d="M0 ${y} Q 270 ${y - a} 540 ${y} T 1080 ${y} V 1350 H 0 Z" fill="${mix(from, to, 0.3 + k * 0.2)}" fill-opacity="0.85"/>`;
        })
        .join('');
      body = `<rect width="1080" height="1350" fill="url(#sky)"/><circle cx="${200 + r(6) * 680}" cy="420" r="130" fill="#ffffff" fill-opacity="0.8"/>${waves}`;
      break;
    }
    case 'bloom': {
      const petals = Array.from({ length: 8 }, (_, k) => `<ellipse cx="540" cy="470" rx="95" ry="210" fill="${mix(from, '#ffffff', 0.25 + (k % 2) * 0.2)}" fill-opacity="0.9" transform="rotate(${k * 45 + r(7) * 20} 540 675)"/>`).join('');
      body = `<rect width="1080" height="1350" fill="url(#sky)"/>${petals}<circle cx="540" cy="675" r="110" fill="#ffd166"/>`;
      break;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1080 1350" preserveAspectRatio="xMidYMid slice">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
${body}
</svg>`;
}
