import { Type, type Static } from 'typebox';

/**
 * `GET /release?{timestamp}` (SPEC §7, §9 "Update check 30 min"): the release of the site this
 * server serves, an id the site's build writes next to its files. A page that runs another
 * release offers a reload. `release` is null when the server has no built site (development).
 */
export const Release = Type.Object({
  release: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
});
export type Release = Static<typeof Release>;

/** The file the site's build writes into its output folder, holding `{ "release": "…" }`. */
export const RELEASE_FILE = 'release.json';
