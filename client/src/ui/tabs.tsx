import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";

export interface TabDefinition {
  id: string;
  label: string;
  testId?: string;
  /** Called only for the selected tab, so an unopened tab costs nothing (not even its code, when lazy). */
  renderPanel: () => ReactNode;
}

interface TabsProps {
  /** Names the tab list for assistive technology. */
  label: string;
  tabs: TabDefinition[];
  /** The selected tab's id, where the screen keeps it (its address); kept inside otherwise. */
  selectedId?: string | undefined;
  /** Told of a choice, with `selectedId`. */
  onSelect?: (id: string) => void;
}

/** The keys of the ARIA tabs pattern: arrows move and select (wrapping around), Home and End jump to the ends. */
function nextTabIndex(key: string, current: number, count: number): number | null {
  switch (key) {
    case "ArrowRight":
      return (current + 1) % count;
    case "ArrowLeft":
      return (current - 1 + count) % count;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/** A tab list and its one visible panel; only the selected tab is in the Tab order (roving tabindex). */
export function Tabs({ label, tabs, selectedId, onSelect }: TabsProps) {
  const baseId = useId();
  const [keptId, setKeptId] = useState(tabs[0]?.id);
  const chosenId = onSelect ? selectedId : keptId;
  const setChosenId = onSelect ?? setKeptId;
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());
  // A tab can disappear (the admin tab after signing out): the first one takes over.
  const selected = tabs.find((tab) => tab.id === chosenId) ?? tabs[0];
  if (!selected) return null;
  const tabElementId = (tab: TabDefinition) => `${baseId}-tab-${tab.id}`;
  const panelElementId = (tab: TabDefinition) => `${baseId}-panel-${tab.id}`;

  const moveWithKeys = (event: KeyboardEvent) => {
    const next = nextTabIndex(event.key, tabs.indexOf(selected), tabs.length);
    const tab = next === null ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    setChosenId(tab.id);
    tabRefs.current.get(tab.id)?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label={label} onKeyDown={moveWithKeys} className="flex gap-1 overflow-x-auto border-b border-line">
        {tabs.map((tab) => {
          const isSelected = tab === selected;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.id, element);
                else tabRefs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={tabElementId(tab)}
              data-testid={tab.testId}
              aria-selected={isSelected}
              // Only the selected tab's panel is in the page.
              aria-controls={isSelected ? panelElementId(tab) : undefined}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => setChosenId(tab.id)}
              className={`-mb-px min-h-11 border-b-2 px-4 py-2 text-sm font-semibold whitespace-nowrap transition-colors ${
                isSelected ? "border-accent text-accent" : "border-transparent text-ink-muted hover:border-line hover:text-ink"
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelElementId(selected)} aria-labelledby={tabElementId(selected)} tabIndex={0} className="rounded-sm pt-8">
        {selected.renderPanel()}
      </div>
    </div>
  );
}
