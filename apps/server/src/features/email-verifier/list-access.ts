import { verifyListStore } from './queries';

/** A list the caller sees (404 otherwise: another organisation's, or another member's for an Executive). */
export const requireList = verifyListStore.require;
