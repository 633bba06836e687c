// Dialogs open without JavaScript through invoker commands; `popovertarget` is the fallback for browsers
// without them (Chromium < 135, Firefox < 144, Safari < 26.2), ignored by the rest since `commandfor` wins.
declare module "react" {
  // Not yet in React's types; React passes lowercase attributes through as they are.
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: "show-modal" | "close";
  }
}

export function openerProps(id: string) {
  return {
    type: "button",
    commandfor: id,
    command: "show-modal",
    popoverTarget: id,
    "aria-haspopup": "dialog",
  } as const;
}

export function CloseButton({ dialog }: { dialog: string }) {
  return (
    <button
      type="button"
      commandfor={dialog}
      command="close"
      popoverTarget={dialog}
      popoverTargetAction="hide"
      className="close-button"
    >
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24">
        <path d="M5 5l14 14M19 5L5 19" stroke="currentColor" strokeWidth="2" />
      </svg>
      Close
    </button>
  );
}

export function dialogProps(id: string) {
  return { id, popover: "auto", closedby: "any" } as const;
}

// For choices that keep the page under JavaScript; without it they load a new page, its dialogs closed.
export function closeDialogAround(element: Element) {
  const dialog = element.closest("dialog");
  if (dialog?.open) dialog.close();
  else if (dialog?.matches(":popover-open")) dialog.hidePopover();
}
