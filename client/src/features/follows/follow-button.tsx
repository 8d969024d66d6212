import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { useAuth } from "@/features/accounts";
import { useNumberFormat } from "@/lib/use-number-format";
import { loginPathReturningTo } from "@/lib/use-return-path";
import { Spinner } from "@/ui/icons";
import { buttonClassName } from "@/ui/styles";
import { useFollowAuthor, useFollowState } from "@/features/follows/use-follows";

export interface FollowedAuthor {
  id: string;
  displayName: string | null;
}

function FollowIcon({ following }: { following: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      {following ? <path d="M4 10.5l4 4 8-9" /> : <path d="M10 4v12M4 10h12" />}
    </svg>
  );
}

/** The author's own view: how many readers follow them, never who (docs/product.md#follows). */
function FollowerCount({ authorId }: { authorId: string }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const state = useFollowState(authorId, true);
  const count = state.data?.followerCount;
  if (count === undefined || count === null) return null;
  return (
    <p data-testid="follower-count" className="text-sm font-semibold text-ink-muted">
      {t("follow.followers", { count, formatted: format.integer(count) })}
    </p>
  );
}

function FollowToggle({ author, name, className }: { author: FollowedAuthor; name: string; className: string }) {
  const { t } = useTranslation();
  const state = useFollowState(author.id, true);
  const change = useFollowAuthor(author.id, name);
  // While a change is on its way the button shows it, not the state it replaces.
  const following = change.isPending ? change.variables : state.data?.following === true;
  const busy = state.isPending || change.isPending;
  return (
    <button
      type="button"
      data-testid="follow-button"
      data-following={following}
      aria-busy={busy}
      disabled={busy}
      title={t(following ? "follow.unfollowAuthor" : "follow.followAuthor", { author: name })}
      onClick={() => change.mutate(!following)}
      className={buttonClassName(following ? "secondary" : "primary", className)}
    >
      {change.isPending ? <Spinner /> : <FollowIcon following={following} />}
      <span>
        {t(following ? "follow.following" : "follow.follow")} <span className="sr-only">{name}</span>
      </span>
    </button>
  );
}

/**
 * "Follow" an author (docs/product.md#follows), for the author page, the book page and the reader's
 * last page: a signed-in reader follows or unfollows at a press; a visitor is led to sign in and back;
 * the author sees their followers' count instead. The state is the reader's own call, never part of
 * the page's public answer.
 */
export function FollowButton({ author, className = "" }: { author: FollowedAuthor; className?: string }) {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  const [location] = useLocation();
  const name = author.displayName ?? t("book.anonymousAuthor");
  if (isLoading) return null;
  if (!user) {
    return (
      <Link href={loginPathReturningTo(location)} data-testid="follow-sign-in" className={buttonClassName("secondary", className)}>
        <FollowIcon following={false} />
        <span>{t("follow.signInToFollow")}</span>
      </Link>
    );
  }
  if (user.id === author.id) return <FollowerCount authorId={author.id} />;
  return <FollowToggle author={author} name={name} className={className} />;
}
