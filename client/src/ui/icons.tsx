/** Small line icons drawn in the text colour; decorative, so hidden from assistive technology. */

interface IconProps {
  className?: string;
}

export function LockIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75">
      <rect x="4" y="9" width="12" height="8.5" rx="1.5" />
      <path d="M6.75 9V6.5a3.25 3.25 0 0 1 6.5 0V9" />
    </svg>
  );
}

export function DownloadIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M10 3v10M5.5 8.5 10 13l4.5-4.5M4 16.5h12" />
    </svg>
  );
}

export function StarIcon({ filled, className = "size-5" }: IconProps & { filled: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} strokeWidth="1.4" strokeLinejoin="round">
      <path
        d="M10 2.2l2.4 4.9 5.4.8-3.9 3.8.9 5.4L10 14.6l-4.8 2.5.9-5.4-3.9-3.8 5.4-.8z"
        className={filled ? "fill-amber-500 stroke-amber-700" : "fill-transparent stroke-ink-muted"}
      />
    </svg>
  );
}

/** A turning ring for work in progress; the button or region it sits in says what is going on. */
export function Spinner({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={`animate-spin motion-reduce:animate-none ${className}`} fill="none">
      <circle cx="10" cy="10" r="7.5" stroke="currentColor" strokeOpacity="0.3" strokeWidth="2.5" />
      <path d="M17.5 10A7.5 7.5 0 0 0 10 2.5" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

export function SearchIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round">
      <circle cx="8.75" cy="8.75" r="5.25" />
      <path d="M12.75 12.75 16.5 16.5" />
    </svg>
  );
}

export function WalletIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinejoin="round">
      <path d="M3 6.5A2.5 2.5 0 0 1 5.5 4h9.5v2.5" />
      <rect x="3" y="6.5" width="14" height="10" rx="2" />
      <path d="M13 11.5h4" strokeLinecap="round" />
    </svg>
  );
}

export function WarningIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M10 3 2.5 16.5h15z" />
      <path d="M10 8.5v3.5M10 14.25v.01" />
    </svg>
  );
}

export function CheckIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="m4.5 10.5 3.5 3.5 7.5-8" />
    </svg>
  );
}

export function CopyIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinejoin="round">
      <rect x="7" y="7" width="9.5" height="9.5" rx="1.5" />
      <path d="M13 7V5a1.5 1.5 0 0 0-1.5-1.5h-6A1.5 1.5 0 0 0 4 5v6a1.5 1.5 0 0 0 1.5 1.5H7" />
    </svg>
  );
}

export function PencilIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinejoin="round">
      <path d="M13.5 3.5 16.5 6.5 7 16H4v-3z" />
      <path d="m11.5 5.5 3 3" />
    </svg>
  );
}

export function TrashIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M3.5 5.5h13M8 5.5V4h4v1.5M5.5 5.5l.75 11h7.5l.75-11M8.5 8.5v5M11.5 8.5v5" />
    </svg>
  );
}

export function ExternalLinkIcon({ className = "size-4" }: IconProps) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M11 3.5h5.5V9M16.5 3.5 9 11M14 12.5v3a1 1 0 0 1-1 1H4.5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h3" />
    </svg>
  );
}
