import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Toaster } from "@/ui/toaster";
import { DEFAULT_TOAST_DURATION_MS, pauseToast, resumeToast, toast } from "@/lib/toast";

describe("Toaster", () => {
  it("shows one toast at a time: a new one replaces the old", () => {
    render(<Toaster />);
    act(() => {
      toast({ title: "Saved", description: "Your book is saved." });
    });
    expect(screen.getByRole("status")).toHaveTextContent("Saved");

    act(() => {
      toast({ title: "Error", description: "The upload failed.", variant: "destructive" });
    });
    expect(screen.queryByText("Saved")).not.toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("ErrorThe upload failed.");
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
    expect(screen.getAllByRole("button", { name: "Close" })).toHaveLength(1);
  });

  it("hides a toast after 5 seconds, and the replaced toast's timer does not cut the new one short", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: "First" });
    });
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    act(() => {
      toast({ title: "Second" });
    });
    act(() => {
      vi.advanceTimersByTime(DEFAULT_TOAST_DURATION_MS - 1);
    });
    expect(screen.getByText("Second")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText("Second")).not.toBeInTheDocument();
  });

  it("stays while paused and then finishes its remaining time", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: "Read me", duration: 1000 });
    });
    act(() => {
      vi.advanceTimersByTime(600);
    });
    pauseToast();
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.getByText("Read me")).toBeInTheDocument();
    resumeToast();
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(screen.queryByText("Read me")).not.toBeInTheDocument();
  });

  it("closes with its close button", async () => {
    const user = userEvent.setup();
    render(<Toaster />);
    act(() => {
      toast({ title: "Welcome back!" });
    });
    await user.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByText("Welcome back!")).not.toBeInTheDocument();
  });
});
