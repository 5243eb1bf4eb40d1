import { RelationType } from '../../../../lib/contract/account';
import { pageSizes } from '../../../../lib/contract/rules/pages';

/** SPEC §9: user lists come in pages of 30. */
export const relationsPageSize = pageSizes.userLists;

export type RelationKind = (typeof RelationType)[keyof typeof RelationType];

/** A search text as a LIKE pattern that matches it literally anywhere, case aside. */
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The blocked list is private: only its owner reads it, and only while logged in. The
 * following and followers lists are public, as on any profile.
 */
export function mayReadRelations(kind: RelationKind, ownerId: number, viewerId: number | null): boolean {
  return kind !== RelationType.blocked || viewerId === ownerId;
}
