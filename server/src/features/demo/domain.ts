/**
 * The demo content a fresh installation starts with, so a newcomer sees a living site.
 * Everything is fixed data: the same installation always gets the same people. Prices
 * are stored cents from the SPEC §9 price steps.
 */
export interface DemoUser {
  username: string;
  displayName: string;
  bio: string;
  gender: 1 | 2;
  isSeller: boolean;
  isPartner: boolean;
  hasBadge: boolean;
  messagePrice: number;
  callPrice: number;
  followersCount: number;
  postsCount: number;
  offersSubscriptions: boolean;
  /** Seen at seeding time, so the profile shows online for the first minutes. */
  online: boolean;
  colors: [string, string];
  level?: number;
  /** Lists the partner demo's origins as sites allowed to embed her widgets. */
  embedsDemo?: boolean;
}

/**
 * The partner demo (`/demo/`) plays a creator's own site. Opened on the other loopback name
 * than the platform (`localhost` against `127.0.0.1`) it is another origin and another site,
 * as a real partner page is. The demo creators list both loopback names of the port `npm start`
 * uses, and of the port this server answers on when that is another (a second instance, the
 * end-to-end tests on their own port).
 */
export function demoPartnerOrigins(publicUrl: string): string[] {
  const ports = new Set(['8080']);
  const url = new URL(publicUrl);
  if (['localhost', '127.0.0.1'].includes(url.hostname)) ports.add(url.port || (url.protocol === 'https:' ? '443' : '80'));
  return [...ports].flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
}

/**
 * The demo creators' monthly subscription offers: stored cents from the post-media price
 * steps (SPEC §9), for the creators marked `offersSubscriptions`.
 */
export const demoOffers: Readonly<Record<string, readonly { name: string; priceCents: number }[]>> = {
  'lucy.rivers': [{ name: 'Monthly', priceCents: 640 }],
  'marek.novak': [{ name: 'Monthly', priceCents: 320 }],
  'sofia.bloom': [
    { name: 'Monthly', priceCents: 640 },
    { name: 'Inner circle', priceCents: 1600 },
  ],
  'tereza.kralova': [{ name: 'Monthly', priceCents: 320 }],
  'mia.chen': [{ name: 'Monthly', priceCents: 1280 }],
  'emma.hart': [{ name: 'Monthly', priceCents: 1920 }],
};

export const demoCreators: readonly DemoUser[] = [
  {
    username: 'lucy.rivers',
    displayName: 'Lucy Rivers',
    bio: 'Travel photographer and coffee addict. Sunrise hikes, city nights and the stories behind every shot.',
    gender: 2, isSeller: true, isPartner: true, hasBadge: true,
    messagePrice: 32, callPrice: 128, followersCount: 12_480, postsCount: 342, offersSubscriptions: true, online: true,
    colors: ['#ff6b9a', '#7c3aed'],
    embedsDemo: true,
  },
  {
    username: 'marek.novak',
    displayName: 'Marek Novák',
    bio: 'Guitarist from Brno. Acoustic covers, songwriting sessions and the occasional live stream from my tiny studio.',
    gender: 1, isSeller: true, isPartner: true, hasBadge: true,
    messagePrice: 24, callPrice: 95, followersCount: 3_215, postsCount: 128, offersSubscriptions: true, online: false,
    colors: ['#0ea5e9', '#1e3a8a'],
  },
  {
    username: 'sofia.bloom',
    displayName: 'Sofia Bloom',
    bio: 'Yoga teacher. Morning flows, breathing practice and plant-based recipes that actually taste good.',
    gender: 2, isSeller: true, isPartner: true, hasBadge: true,
    messagePrice: 48, callPrice: 160, followersCount: 28_930, postsCount: 611, offersSubscriptions: true, online: true,
    colors: ['#34d399', '#047857'],
  },
  {
    username: 'ava.sterling',
    displayName: 'Ava Sterling',
    bio: 'Fashion stylist. Outfit ideas for every budget, thrift finds and behind-the-scenes from photo shoots.',
    gender: 2, isSeller: true, isPartner: false, hasBadge: false,
    messagePrice: 16, callPrice: 64, followersCount: 1_204, postsCount: 87, offersSubscriptions: false, online: false,
    colors: ['#f59e0b', '#b91c1c'],
  },
  {
    username: 'tereza.kralova',
    displayName: 'Tereza Králová',
    bio: 'Illustrator in Prague. Watercolour cities, sketchbook tours and custom portraits for my subscribers.',
    gender: 2, isSeller: true, isPartner: true, hasBadge: true,
    messagePrice: 32, callPrice: 128, followersCount: 6_742, postsCount: 254, offersSubscriptions: true, online: false,
    colors: ['#a78bfa', '#db2777'],
  },
  {
    username: 'mia.chen',
    displayName: 'Mia Chen',
    bio: 'Fitness coach. Home workouts, honest progress and answers to every question you are shy to ask at the gym.',
    gender: 2, isSeller: true, isPartner: true, hasBadge: false,
    messagePrice: 64, callPrice: 320, followersCount: 45_100, postsCount: 903, offersSubscriptions: true, online: true,
    colors: ['#fb7185', '#9f1239'],
  },
  {
    username: 'nina.vega',
    displayName: 'Nina Vega',
    bio: 'Salsa and bachata dancer. Short tutorials, festival diaries and private lessons by video call.',
    gender: 2, isSeller: true, isPartner: false, hasBadge: false,
    messagePrice: 13, callPrice: 48, followersCount: 812, postsCount: 45, offersSubscriptions: false, online: false,
    colors: ['#f97316', '#7c2d12'],
  },
  {
    username: 'emma.hart',
    displayName: 'Emma Hart',
    bio: 'Writer and book lover. Weekly reading lists, short stories and cosy Sunday chats with my readers.',
    gender: 2, isSeller: true, isPartner: true, hasBadge: true,
    messagePrice: 95, callPrice: 640, followersCount: 9_870, postsCount: 176, offersSubscriptions: true, online: false,
    colors: ['#14b8a6', '#1e40af'],
  },
];

const fan = (username: string, displayName: string, bio: string, gender: 1 | 2, colors: [string, string], followersCount: number): DemoUser => ({
  username, displayName, bio, gender, colors, followersCount,
  isSeller: false, isPartner: false, hasBadge: false, messagePrice: 0, callPrice: 0, postsCount: 0,
  offersSubscriptions: false, online: false,
});

export const demoFans: readonly DemoUser[] = [
  fan('jakub.dvorak', 'Jakub Dvořák', 'Music, mountains and good coffee.', 1, ['#64748b', '#0f172a'], 12),
  fan('tom.baker', 'Tom Baker', 'Weekend hiker, weekday developer.', 1, ['#22c55e', '#166534'], 4),
  fan('petra.svobodova', 'Petra Svobodová', 'Yoga every morning, books every night.', 2, ['#e879f9', '#86198f'], 27),
  fan('daniel.kim', 'Daniel Kim', 'Collecting photos from places I have not been yet.', 1, ['#38bdf8', '#075985'], 8),
  fan('oliver.grant', 'Oliver Grant', 'Here for the guitar covers.', 1, ['#facc15', '#a16207'], 3),
  fan('klara.novotna', 'Klára Novotná', 'Dance, travel, repeat.', 2, ['#fda4af', '#be123c'], 19),
];

/**
 * The platform's staff: the administrator (level 500) who decides partner applications and
 * identity checks and marks payouts paid. Signs in like the other demo accounts
 * (`fanstage.admin@example.com` with DEMO_PASSWORD); no public profile (SPEC §3).
 */
export const demoStaff: readonly DemoUser[] = [
  {
    ...fan('fanstage.admin', 'Fanstage Admin', 'Platform administrator.', 1, ['#475569', '#1e293b'], 0),
    level: 500,
  },
];

/** "Lucy Rivers" → "LR"; one name gives one letter. */
export function initialsOf(displayName: string): string {
  const parts = displayName.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]!, parts[parts.length - 1]!] : parts;
  return letters.map((part) => Array.from(part)[0]!.toUpperCase()).join('');
}

export const demoEmailDomain = 'example.com';
