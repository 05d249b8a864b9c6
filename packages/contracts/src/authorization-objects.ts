/**
 * Objects reached by id, and which of them a member sees: the rule the list pages filter by and every by-id
 * route applies (another member's object answers 404 where the caller's role does not see it).
 */
import type { TRole } from './enums';

/**
 * Objects reached by id. `member` objects belong to the member who created them: lists, searches, prepared files,
 * and also apps (form guards are apps), webhooks and their deliveries. The spec's menus.tsv gives apps
 * list_app/create_app/edit_app and developer webhook to everyone, so every role keeps those menus; but what a role
 * sees and acts on there follows MEMBER_OBJECT_VISIBILITY, as for lists: an Executive sees, changes, rotates and
 * deletes only the apps, guards and webhooks they created (another member's answers 404, like another
 * organisation's: the Executive never sees it on the list pages either); owners and Managers act on all (issue 27
 * point 9). `organisation` objects would be every member's (none today).
 */
export const OBJECT_OWNERSHIP = {
  verify_list: 'member',
  finder_list: 'member',
  finder_search: 'member',
  download: 'member',
  app: 'member',
  webhook: 'member',
  webhook_delivery: 'member',
} as const satisfies Record<string, 'member' | 'organisation'>;
export type TObjectKind = keyof typeof OBJECT_OWNERSHIP;
export type TMemberObjectKind = { [K in TObjectKind]: (typeof OBJECT_OWNERSHIP)[K] extends 'member' ? K : never }[TObjectKind];

export type TObjectRef = { readonly kind: TObjectKind; readonly from: 'body' | 'query' | 'params'; readonly field: string };

/**
 * Which member objects a role sees: Owners and Managers see every member's lists, searches and files (they have
 * the team view: spec section 6, menus.tsv analytics.team); an Executive sees only their own ("analytics without
 * team"). The list pages filter by it, and every by-id route applies the same rule.
 */
export const MEMBER_OBJECT_VISIBILITY: Readonly<Record<TRole, 'organisation' | 'own'>> = { owner: 'organisation', admin: 'organisation', analyst: 'own' };

/** The member whose objects alone `role` sees (undefined: every member's of the organisation). */
export function getVisibleOwnerId(role: TRole, userId: string): string | undefined {
  return MEMBER_OBJECT_VISIBILITY[role] === 'own' ? userId : undefined;
}

/** Whether a member of `role` sees a member object of the same organisation created by `ownerId`. */
export function canSeeMemberObject(role: TRole, userId: string, ownerId: string): boolean {
  const only = getVisibleOwnerId(role, userId);
  return only === undefined || only === ownerId;
}
