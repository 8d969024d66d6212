import { useRef, useState } from "react";

/**
 * A header menu's disclosure button: its open state, the button's ref (the focus goes back to it when
 * the menu closes on Escape) and the attributes that tie the button to the panel it shows.
 */
export function useMenuButton(panelId: string) {
  const [isOpen, setIsOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const buttonProps = {
    ref: trigger,
    type: "button",
    "aria-expanded": isOpen,
    "aria-controls": isOpen ? panelId : undefined,
    onClick: () => setIsOpen(!isOpen),
  } as const;
  return { isOpen, setIsOpen, trigger, buttonProps };
}
