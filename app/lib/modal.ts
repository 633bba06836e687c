import { type KeyboardEvent, type MouseEvent, useRef, useState } from "react";
import { trapTab } from "./focus-trap";

/** Links that act as buttons must also answer the space bar. */
function pressOnSpace(event: KeyboardEvent<HTMLAnchorElement>) {
  if (event.key === " ") {
    event.preventDefault();
    event.currentTarget.click();
  }
}

/**
 * A modal <dialog> opened by a link-button (the side menu, the filters overlay). With JavaScript
 * it opens as a modal: the page behind is inert, Tab stays inside, Escape closes it and focus
 * returns to the button that opened it. Without JavaScript the button is a link to the dialog's
 * id and CSS shows the dialog as the link's :target. While a dialog is open the page does not
 * scroll (site.css: html:has(dialog[open])).
 */
export function useModalDialog(id: string) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLAnchorElement>(null);
  const [open, setOpen] = useState(false);

  const show = (event?: MouseEvent) => {
    event?.preventDefault();
    dialogRef.current?.showModal();
    setOpen(true);
  };
  const close = (event?: MouseEvent) => {
    event?.preventDefault();
    dialogRef.current?.close();
  };

  return {
    open,
    close,
    openerProps: {
      ref: openerRef,
      href: `#${id}`,
      role: "button",
      "aria-haspopup": "dialog" as const,
      "aria-controls": id,
      "aria-expanded": open,
      onClick: (event: MouseEvent) => (open ? close(event) : show(event)),
      onKeyDown: pressOnSpace,
    },
    closerProps: {
      href: "#top",
      role: "button",
      onClick: close,
      onKeyDown: pressOnSpace,
    },
    dialogProps: {
      ref: dialogRef,
      id,
      onClose: () => {
        setOpen(false);
        openerRef.current?.focus();
      },
      onClick: (event: MouseEvent<HTMLDialogElement>) => {
        if (event.target === event.currentTarget) close();
      },
      onKeyDown: trapTab,
    },
  };
}
