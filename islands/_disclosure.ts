/**
 * How the header's disclosure menus close (the app navigation menu, the public site menu and
 * the notifications panel): Escape closes the menu and returns focus to its toggle, and a
 * pointer press anywhere outside the menu closes it.
 */
import { type RefObject, useEffect } from "react";

/**
 * While `isOpen`, calls `close(true)` on Escape (the caller returns focus to its toggle) and
 * `close(false)` on a pointer press outside `root`. A menu whose open state the browser keeps
 * (a <details>) passes `true` and checks the element in `close`.
 */
export function useDismiss(
  isOpen: boolean,
  root: RefObject<HTMLElement | null>,
  close: (isEscape: boolean) => void,
): void {
  useEffect(() => {
    if (!isOpen) return;
    function onPointerDown(event: PointerEvent) {
      if (root.current && !root.current.contains(event.target as Node)) close(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") close(true);
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [isOpen, root, close]);
}
