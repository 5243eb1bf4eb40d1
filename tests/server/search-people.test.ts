import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from '../../server/src/db';
import { startTestServer, type TestServer } from '../support/server';
import { follow, get, ids, person, post, type Person } from './support-feeds';

let server: TestServer;
let app: FastifyInstance;

/** The named people among the crowd; the crowd's names share their starts and near spellings. */
let emmaHart: Person;
let emmaHartley: Person;
let emmaHartmann: Person;
let emaHart: Person;
let tereza: Person;
let lucy: Person;
let fan: Person;

const first = ['Emma', 'Emily', 'Emil', 'Ema', 'Anna', 'Tereza', 'Lucie', 'Lucy', 'Jana', 'Eva'];
const last = ['Hart', 'Hartová', 'Hartl', 'Hurt', 'Rivers', 'Rivera', 'Krátká', 'Král', 'Novák', 'Dvořák'];

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
  // 10,000 people: every first name with every surname, then a number ("Emma Hartová 417"),
  // as creators with followers from 0 to 999 — most of them more followed than the named ones.
  await app.fanstage.db.execute(sql`
    insert into users (username, display_name, email, email_verified, is_seller, gender, followers_count)
    select 'crowd' || g, (string_to_array(${first.join(',')}, ','))[1 + g % 10] || ' ' || (string_to_array(${last.join(',')}, ','))[1 + (g / 10) % 10] || ' ' || g,
           'crowd' || g || '@example.com', true, true, 2, g % 1000
    from generate_series(1, 10000) g`);
  emmaHart = await person(app, { username: 'emma.hart', displayName: 'Emma Hart', followersCount: 1 });
  emmaHartley = await person(app, { username: 'ehartley', displayName: 'Emma Hartley', followersCount: 5 });
  emmaHartmann = await person(app, { username: 'ehartmann', displayName: 'Emma Hartmann', followersCount: 50, hasBadge: true });
  await person(app, { username: 'ehartzova', displayName: 'Emma Hartzová', followersCount: 500 });
  emaHart = await person(app, { username: 'ema.h', displayName: 'Ema Hart', followersCount: 5000 });
  tereza = await person(app, { username: 'tereza.kralova', displayName: 'Tereza Králová', followersCount: 3 });
  lucy = await person(app, { username: 'lucy.rivers', displayName: 'Lucy Rivers', followersCount: 2 });
  fan = await person(app, { username: 'some.fan', displayName: 'Some Fan', isSeller: false });
});
afterAll(async () => {
  await server?.close();
});

const names = async (q: string, who?: Person) => {
  const answer = await get(app, `/papi/search/users?q=${encodeURIComponent(q)}&limit=50`, who);
  expect([answer.status, answer.json.statusCode]).toEqual([200, 2]);
  return (answer.json.body as { displayName: string }[]).map((p) => p.displayName);
};

describe('people search among 10,000', () => {
  it('ranks the exact name first, then names it starts, and leaves out near spellings while those exist', async () => {
    const answer = await get(app, '/papi/search/users?q=emma%20hart&limit=50');
    const found = answer.json.body as { id: number; displayName: string; hasBadge: boolean; followersCount: number }[];
    expect(found[0]!.id).toBe(emmaHart.id);
    // Then the names it starts ("Emma Hartley", the crowd's "Emma Hartová 10"): verified first
    // (Hartmann, 50 followers), then the most followed, though the exact one has 1.
    const rest = found.slice(1);
    expect(rest).toHaveLength(49);
    expect(rest[0]!.id).toBe(emmaHartmann.id);
    const folded = (name: string) => name.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
    for (const p of rest) expect(folded(p.displayName)).toMatch(/^emma hart/);
    const followers = rest.slice(1).map((p) => p.followersCount);
    expect(followers).toEqual([...followers].sort((a, b) => b - a));
    expect(followers[0]).toBeGreaterThan(500);
    // "Ema Hart" (5,000 followers) is a near spelling: not among real matches.
    expect(found.map((p) => p.id)).not.toContain(emaHart.id);
  });

  it('ranks in the same order on every page and puts those the viewer follows first', async () => {
    const viewer = await person(app, { isSeller: false });
    await follow(app, viewer.id, emmaHartley.id);
    const found = await names('Emma Hart', viewer);
    expect(found.slice(0, 3)).toEqual(['Emma Hart', 'Emma Hartley', 'Emma Hartmann']);
    const pages = [
      ...(await ids(app, '/papi/search/users?q=emma%20hart&limit=20&offset=0', viewer)),
      ...(await ids(app, '/papi/search/users?q=emma%20hart&limit=20&offset=20', viewer)),
    ];
    expect(pages).toEqual(await ids(app, '/papi/search/users?q=emma%20hart&limit=40', viewer));
    expect(new Set(pages).size).toBe(40);
  });

  it('ignores case and accents: kralova, Králová and KRALOVA find Tereza Králová first', async () => {
    for (const q of ['kralova', 'Králová', 'KRALOVA', 'tereza kralova', 'tereza.kralova']) {
      const found = await ids(app, `/papi/search/users?q=${encodeURIComponent(q)}`);
      expect(found[0], q).toBe(tereza.id);
    }
    // The crowd's "Jana Král 3" do not start with it.
    expect(await names('kralova')).toEqual(['Tereza Králová']);
  });

  it('forgives a typo when nothing starts with what was typed, the closest name first', async () => {
    expect((await ids(app, '/papi/search/users?q=lucy%20rivres'))[0]).toBe(lucy.id);
    expect((await ids(app, '/papi/search/users?q=LUCY%20RIVERS'))[0]).toBe(lucy.id);
    expect((await ids(app, '/papi/search/users?q=emma%20hrat'))[0]).toBe(emmaHart.id);
    expect((await ids(app, '/papi/search/users?q=tereza%20kralvoa'))[0]).toBe(tereza.id);
    expect(await ids(app, '/papi/search/users?q=qqqqzzzz')).toEqual([]);
  });

  it('answers the quick search and discover from the same search', async () => {
    const tips = (await get(app, '/papi/search/tips?q=kralova')).json.body as { users: { id: number }[] };
    expect(tips.users[0]!.id).toBe(tereza.id);
    expect((await ids(app, '/papi/discover/search?q=lucy%20rivres'))[0]).toBe(lucy.id);
    // Discover lists creators; people search finds fans too.
    expect(await ids(app, '/papi/search/users?q=some%20fan')).toEqual([fan.id]);
    expect(await ids(app, '/papi/discover/search?q=some%20fan')).toEqual([]);
  });
});

describe('post and tag search', () => {
  it('ignores accents in posts and hashtags', async () => {
    const creator = await person(app);
    const past = new Date(Date.now() - 60_000);
    const summer = await post(app, creator.id, { publishedAt: past, text: 'Krásné LÉTO na horách #létoVhorách', tags: ['létovhorách'] });
    expect(await ids(app, '/papi/search/posts?q=leto')).toEqual([summer.id]);
    expect(await ids(app, '/papi/search/posts?q=Krasne%20horach')).toEqual([summer.id]);
    expect((await get(app, '/papi/search/tags?q=letovho')).json.body).toEqual([{ tag: 'létovhorách', count: 1 }]);
    expect((await get(app, '/papi/search/tags?q=%23L%C3%A9to')).json.body).toEqual([{ tag: 'létovhorách', count: 1 }]);
  });

  it('reads a rare word from the index and a common one from the newest posts, with the same answer', async () => {
    const creator = await person(app);
    const top = Date.UTC(2025, 5, 1);
    const expected: number[] = [];
    for (let i = 0; i < 20; i++) expected.push((await post(app, creator.id, { publishedAt: new Date(top - i * 60_000), text: `zanzibarový výlet ${i}` })).id);
    expect(await ids(app, '/papi/search/posts?q=zanzibarovy')).toEqual(expected.slice(0, 15));
    expect(await ids(app, '/papi/search/posts?q=zanzibarovy&offset=15')).toEqual(expected.slice(15));
  });
});
