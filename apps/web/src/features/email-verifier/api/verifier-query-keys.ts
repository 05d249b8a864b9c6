/**
 * The verifier's query keys, apart from the hooks that use them: the job-end refresh invalidates them and the API
 * hooks run that refresh, so holding the keys in either file would tie the two into an import cycle.
 */
export const verifierQueryKeys = {
  all: ['email-verifier'] as const,
  recent: ['email-verifier', 'recent'] as const,
  lists: ['email-verifier', 'lists'] as const,
  list: (listId: string) => ['email-verifier', 'list', listId] as const,
  progress: (listId: string) => ['email-verifier', 'progress', listId] as const,
  /** A list's "Keep verified" schedule (whether it can be kept verified follows the list's state). */
  keepVerified: (listId: string) => ['email-verifier', 'keep-verified', listId] as const,
};
