// The follows feature's public file (docs/decisions/0057-client-feature-folders.md): the follow button
// the author page, the book page and the reader's last page place, the reader's follow state and what is
// new from followed authors (the home's row); the unsubscribe screen is loaded by App.tsx with import().
export { FollowButton, type FollowedAuthor } from "./follow-button";
export { useFollowState, useFollowingItems } from "./use-follows";
