/**
 * The gift catalogue the platform ships with. `cValue` is what the receiver earns in cents;
 * the sender pays `gValue` credits, the same amount with the platform's multiplier applied
 * (one credit is one cent, SPEC §9), so the difference is the platform's fee.
 */
export interface GiftDefinition {
  name: string;
  imageName: string;
  cValue: number;
  /** The picture, drawn on a 256 × 256 canvas. */
  art: string;
}

export function giftPrice(cValue: number, salt: number): number {
  // Half up, in integers, and never free: the same rounding fans see on every price.
  return cValue === 0 ? 0 : Math.max(1, Math.floor((cValue * salt + 5000) / 10000));
}

const background = (from: string, to: string) =>
  `<defs><radialGradient id="bg" cx="0.5" cy="0.4" r="0.7"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></radialGradient></defs><rect width="256" height="256" rx="56" fill="url(#bg)"/>`;

export const giftCatalogue: readonly GiftDefinition[] = [
  {
    name: 'Rose',
    imageName: 'rose.webp',
    cValue: 100,
    art: `${background('#ffe3ea', '#ffb3c4')}<path d="M128 150 C126 185 122 205 118 228" stroke="#2e8b57" stroke-width="9" fill="none" stroke-linecap="round"/><path d="M122 196 C100 186 88 170 86 156 C104 160 118 172 122 196Z" fill="#3aa86b"/><circle cx="128" cy="108" r="46" fill="#d81b47"/><path d="M96 104 C104 76 150 72 160 102 C146 92 116 92 96 104Z" fill="#a3123a"/><path d="M110 122 C120 98 146 100 150 120 C140 112 122 112 110 122Z" fill="#ff4f73"/>`,
  },
  {
    name: 'Heart',
    imageName: 'heart.webp',
    cValue: 200,
    art: `${background('#ffe8ef', '#ff9ab5')}<path d="M128 212 C60 160 40 126 52 94 C64 62 108 58 128 92 C148 58 192 62 204 94 C216 126 196 160 128 212Z" fill="#e8174e"/><ellipse cx="92" cy="100" rx="16" ry="10" fill="#fff" fill-opacity="0.45" transform="rotate(-30 92 100)"/>`,
  },
  {
    name: 'Coffee',
    imageName: 'coffee.webp',
    cValue: 300,
    art: `${background('#f6ead8', '#e0c09a')}<path d="M70 104 H170 L160 196 C158 208 148 214 138 214 H102 C92 214 82 208 80 196Z" fill="#fff"/><path d="M170 124 C196 124 200 162 164 168" stroke="#fff" stroke-width="12" fill="none"/><ellipse cx="120" cy="106" rx="48" ry="8" fill="#6b3e1f"/><path d="M104 84 C96 70 112 62 104 46 M128 84 C120 70 136 62 128 46 M152 84 C144 70 160 62 152 46" stroke="#a0785a" stroke-width="6" fill="none" stroke-linecap="round"/>`,
  },
  {
    name: 'Cupcake',
    imageName: 'cupcake.webp',
    cValue: 500,
    art: `${background('#fff1e0', '#ffc98f')}<path d="M76 132 H180 L166 214 H90Z" fill="#f59e0b"/><path d="M96 132 L102 214 M128 132 V214 M160 132 L154 214" stroke="#d97706" stroke-width="5"/><path d="M68 134 C60 104 90 84 110 92 C116 66 152 64 160 90 C186 84 200 112 188 134Z" fill="#f9a8d4"/><circle cx="128" cy="62" r="14" fill="#dc2626"/>`,
  },
  {
    name: 'Champagne',
    imageName: 'champagne.webp',
    cValue: 1000,
    art: `${background('#fff8dc', '#f5d76e')}<path d="M104 48 H152 L146 120 C144 140 112 140 110 120Z" fill="#fde68a" stroke="#b45309" stroke-width="5"/><path d="M108 80 H148 L146 118 C144 134 112 134 110 118Z" fill="#f59e0b"/><path d="M128 138 V196" stroke="#b45309" stroke-width="6"/><ellipse cx="128" cy="202" rx="34" ry="9" fill="#b45309"/><circle cx="166" cy="64" r="5" fill="#fff"/><circle cx="176" cy="86" r="4" fill="#fff"/><circle cx="86" cy="74" r="4" fill="#fff"/>`,
  },
  {
    name: 'Teddy bear',
    imageName: 'teddy.webp',
    cValue: 2000,
    art: `${background('#f3e6dc', '#d2a98a')}<circle cx="86" cy="70" r="22" fill="#8b5a2b"/><circle cx="170" cy="70" r="22" fill="#8b5a2b"/><ellipse cx="128" cy="176" rx="58" ry="52" fill="#8b5a2b"/><circle cx="128" cy="102" r="50" fill="#a0693a"/><ellipse cx="128" cy="120" rx="22" ry="16" fill="#e8c9a8"/><circle cx="110" cy="94" r="6" fill="#1f1f1f"/><circle cx="146" cy="94" r="6" fill="#1f1f1f"/><ellipse cx="128" cy="114" rx="8" ry="6" fill="#1f1f1f"/><ellipse cx="128" cy="182" rx="30" ry="26" fill="#e8c9a8"/>`,
  },
  {
    name: 'Diamond',
    imageName: 'diamond.webp',
    cValue: 5000,
    art: `${background('#e0f7ff', '#7dd3fc')}<path d="M84 70 H172 L208 110 L128 206 L48 110Z" fill="#38bdf8"/><path d="M48 110 H208 L172 70 H84Z" fill="#7dd3fc"/><path d="M84 70 L104 110 L128 70 L152 110 L172 70" fill="none" stroke="#e0f2fe" stroke-width="4"/><path d="M104 110 L128 206 L152 110" fill="none" stroke="#0ea5e9" stroke-width="4"/>`,
  },
  {
    name: 'Crown',
    imageName: 'crown.webp',
    cValue: 10000,
    art: `${background('#fff7d6', '#fbbf24')}<path d="M52 176 L40 84 L92 124 L128 64 L164 124 L216 84 L204 176Z" fill="#f59e0b" stroke="#92400e" stroke-width="5" stroke-linejoin="round"/><rect x="52" y="176" width="152" height="22" rx="6" fill="#d97706" stroke="#92400e" stroke-width="5"/><circle cx="128" cy="140" r="12" fill="#dc2626"/><circle cx="88" cy="150" r="8" fill="#2563eb"/><circle cx="168" cy="150" r="8" fill="#16a34a"/><circle cx="40" cy="84" r="8" fill="#fde68a"/><circle cx="128" cy="64" r="8" fill="#fde68a"/><circle cx="216" cy="84" r="8" fill="#fde68a"/>`,
  },
];

export function giftSvg(gift: GiftDefinition): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">${gift.art}</svg>`;
}

/** Gift pictures are stored under this folder of the media storage and served at /media/gifts/. */
export const giftFolder = 'gifts';
