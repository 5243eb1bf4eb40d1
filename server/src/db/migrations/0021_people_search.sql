-- People, post and tag search that ignore case and accents and forgive typos (docs/api.md, Search).
-- Both extensions are trusted (PostgreSQL 13+): a database owner may create them; PGlite loads
-- them from @electric-sql/pglite/contrib (server/src/db/index.ts).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- unaccent() is only STABLE (its rules file could change); with the dictionary named it gives the
-- same answer for the same text, which is what an index or a generated column needs.
CREATE OR REPLACE FUNCTION public.fanstage_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ select lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
-- A name as search compares it: no accents, lower case, and '.', '_', '-' and runs of spaces as one
-- space, so "Lucy.Rivers", "lucy_rivers" and "Lucy  Rivers" read alike.
CREATE OR REPLACE FUNCTION public.fanstage_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ select btrim(regexp_replace(public.fanstage_unaccent($1), '[[:space:]._-]+', ' ', 'g')) $$;--> statement-breakpoint
-- What follows a name's first word ("kralova" of "tereza kralova"): a surname is found by its start too.
CREATE OR REPLACE FUNCTION public.fanstage_tail(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ select substr($1, strpos($1, ' ') + 1) $$;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_name" text COLLATE "C" GENERATED ALWAYS AS (public.fanstage_fold("display_name")) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_username" text COLLATE "C" GENERATED ALWAYS AS (public.fanstage_fold("username")) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS "users_search_idx";--> statement-breakpoint
-- Prefixes are ranges of these (byte order, "C"), walked in order and stopped after a page.
CREATE INDEX "users_search_name_idx" ON "users" USING btree ("search_name");--> statement-breakpoint
CREATE INDEX "users_search_name_tail_idx" ON "users" USING btree (public.fanstage_tail("search_name") COLLATE "C");--> statement-breakpoint
CREATE INDEX "users_search_username_idx" ON "users" USING btree ("search_username");--> statement-breakpoint
CREATE INDEX "users_search_username_tail_idx" ON "users" USING btree (public.fanstage_tail("search_username") COLLATE "C");--> statement-breakpoint
CREATE INDEX "users_search_verified_idx" ON "users" USING btree ("search_name") WHERE "has_badge";--> statement-breakpoint
-- Typos: trigram word similarity over both names.
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (("search_name" || ' ' || "search_username") gin_trgm_ops);--> statement-breakpoint
-- Post text through unaccent then the simple dictionary: "Léto" and "leto" are one word.
CREATE TEXT SEARCH CONFIGURATION public.fanstage_search (COPY = pg_catalog.simple);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION public.fanstage_search ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, pg_catalog.simple;--> statement-breakpoint
ALTER TABLE "posts" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('public.fanstage_search'::regconfig, "text")) STORED;--> statement-breakpoint
CREATE INDEX "posts_search_idx" ON "posts" USING gin ("search");--> statement-breakpoint
-- Tag suggestions by a prefix without accents; tag and date ride along for an index-only read.
CREATE INDEX "post_hashtags_search_idx" ON "post_hashtags" USING btree ((public.fanstage_unaccent("tag")) COLLATE "C", "tag", "published_at");
