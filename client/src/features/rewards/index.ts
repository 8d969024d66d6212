// The rewards feature's public file (docs/decisions/0057-client-feature-folders.md): an author's
// payments and earnings, and the author parts the home and the dashboard show once one has published.
export { completedEarnings, owedEarnings } from "./earnings";
export { MilestoneProgress } from "./milestone-progress";
export { OwedWalletCall } from "./owed-wallet-call";
export { PublishInvitation } from "./publish-invitation";
export { RecentPayments } from "./recent-payments";
export { RevealedRegion } from "./revealed-region";
export { RewardsInfoCard } from "./rewards-info-card";
export { RewardsProgressCard } from "./rewards-progress-card";
export { useAuthorPayments } from "./use-author-payments";
export { type AuthorParts, useAuthorParts } from "./use-author-parts";
