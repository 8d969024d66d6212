import { downloadsToNextMilestone, MILESTONE_STEP } from "@shared/rewards";
import { useTranslation } from "react-i18next";

interface MilestoneProgressProps {
  downloads: number;
  /** The book it is about, so a list of bars reads "…of Title" for each. */
  bookTitle: string;
}

/** How far a book is on its way to the next PME (every 20 counted downloads), as a bar and a sentence. */
export function MilestoneProgress({ downloads, bookTitle }: MilestoneProgressProps) {
  const { t } = useTranslation();
  const remaining = downloadsToNextMilestone(downloads);
  const done = MILESTONE_STEP - remaining;
  return (
    <div>
      <div
        role="progressbar"
        aria-label={t("rewards.progressLabel", { title: bookTitle })}
        aria-valuemin={0}
        aria-valuemax={MILESTONE_STEP}
        aria-valuenow={done}
        aria-valuetext={t("rewards.progressValue", { done, step: MILESTONE_STEP })}
        className="h-2 overflow-hidden rounded-full bg-accent-soft"
      >
        <div className="h-full rounded-full bg-accent" style={{ width: `${(done / MILESTONE_STEP) * 100}%` }} />
      </div>
      <p className="mt-1.5 text-sm text-ink-muted">{t("rewards.toNextPme", { count: remaining })}</p>
    </div>
  );
}
