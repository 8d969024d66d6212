import { useSyncExternalStore } from "react";

export type ToastVariant = "default" | "destructive";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast hides itself. */
  duration?: number;
}

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
}

export const DEFAULT_TOAST_DURATION_MS = 5000;

/** Only one toast is ever shown (docs/product.md#errors): a new one replaces the current one. */
let current: Toast | null = null;
let lastId = 0;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
let hideAt = 0;
let remainingWhilePaused: number | null = null;
const listeners = new Set<() => void>();

function publish(toast: Toast | null) {
  current = toast;
  for (const listener of listeners) listener();
}

function scheduleHide(id: number, delay: number) {
  clearTimeout(hideTimer);
  hideAt = Date.now() + delay;
  hideTimer = setTimeout(() => dismissToast(id), delay);
}

export function toast({ title, description, variant = "default", duration = DEFAULT_TOAST_DURATION_MS }: ToastOptions): number {
  const id = ++lastId;
  remainingWhilePaused = null;
  scheduleHide(id, duration);
  publish({ id, title, description, variant });
  return id;
}

/** Hides the toast with this id, or whatever toast is shown when no id is given. */
export function dismissToast(id?: number): void {
  if (!current || (id !== undefined && current.id !== id)) return;
  clearTimeout(hideTimer);
  remainingWhilePaused = null;
  publish(null);
}

/** Keeps the toast up while the pointer or keyboard focus is on it, so nobody loses it mid-sentence. */
export function pauseToast(): void {
  if (!current || remainingWhilePaused !== null) return;
  clearTimeout(hideTimer);
  remainingWhilePaused = Math.max(hideAt - Date.now(), 0);
}

export function resumeToast(): void {
  if (!current || remainingWhilePaused === null) return;
  const remaining = remainingWhilePaused;
  remainingWhilePaused = null;
  scheduleHide(current.id, remaining);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCurrentToast(): Toast | null {
  return useSyncExternalStore(subscribe, () => current);
}
