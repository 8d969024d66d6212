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
