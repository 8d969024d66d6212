import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { useAuth } from "@/features/accounts/use-auth";

/** Login and registration are for visitors: a signed-in user is sent home. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <Redirect to="/" replace /> : children;
}
