import type { CurrentUser } from "../../shared/auth.ts";
import type { User } from "../db/schema.ts";

/**
 * An account is new until it signs in again after registering (docs/product.md#accounts): its last
 * sign-in is still the registration, which wrote the same instant as its creation.
 */
export function isNewAccount(user: Pick<User, "createdAt" | "lastSignInAt">): boolean {
  return user.lastSignInAt !== null && user.lastSignInAt.getTime() <= user.createdAt.getTime();
}

/** The account as its owner sees it: never the password hash. */
export function presentCurrentUser(user: Express.User): CurrentUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: user.username,
    profileImageUrl: user.profileImageUrl,
    walletAddress: user.walletAddress,
    notifyPaymentCompleted: user.notifyPaymentCompleted,
    showExplicit: user.showExplicit,
    shelvesPublic: user.shelvesPublic,
    eReaderEmail: user.eReaderEmail,
    digestFrequency: user.digestFrequency,
    totalDownloads: user.totalDownloads,
    totalEarnings: user.totalEarnings,
    isAdmin: user.isAdmin,
    isNewAccount: isNewAccount(user),
    createdAt: user.createdAt.toISOString(),
  };
}
