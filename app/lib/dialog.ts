/**
 * The side menu and the filters overlay are `<dialog>`s that the platform opens and closes, with
 * or without JavaScript: the opener is a button with invoker commands (`commandfor` +
 * `command="show-modal"`), so the browser shows the dialog as a modal (the page behind inert),
 * closes it on Escape or a click on the backdrop (`closedby="any"`), returns focus to the opener,
 * and site.css locks the page scroll while it is open.
 *
 * Fallback where the browser lacks invoker commands (Chromium before 135, Firefox before 144,
 * Safari before 26.2): the same buttons also carry `popovertarget`, and the dialog is a popover.
 * The HTML standard uses `popovertarget` only when `commandfor` names no element, so a browser
 * with invoker commands ignores it and one without them opens the dialog as a popover (Escape,
 * light dismiss and focus return included). A `:target` link can't serve here: without script
 * nothing can show a link only to the browsers that need it, and two openers side by side would
 * be one too many for everyone else; popovers work in every browser since 2024.
 */
declare module "react" {
  /** Invoker commands: not yet in React's types; React passes lowercase attributes through as they are. */
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: "show-modal" | "close";
  }
}

/** The props of the button that opens the dialog `id`. */
export function openerProps(id: string) {
  return {
    type: "button",
    commandfor: id,
    command: "show-modal",
    popoverTarget: id,
    "aria-haspopup": "dialog",
  } as const;
}

/** The props of a button inside the dialog `id` that closes it. */
export function closerProps(id: string) {
  return { type: "button", commandfor: id, command: "close", popoverTarget: id, popoverTargetAction: "hide" } as const;
}

/** The props of the dialog itself. */
export function dialogProps(id: string) {
  return { id, popover: "auto", closedby: "any" } as const;
}

/**
 * Closes the dialog that holds `element`, for the choices that close it while JavaScript keeps the
 * page (a menu link followed by the client router, a sort chosen): without JavaScript they load a
 * new page, on which every dialog starts closed.
 */
export function closeDialogAround(element: Element) {
  const dialog = element.closest("dialog");
  if (dialog?.open) dialog.close();
  else if (dialog?.matches(":popover-open")) dialog.hidePopover();
}
