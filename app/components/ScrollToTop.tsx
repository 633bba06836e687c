import { useEffect, useState } from "react";
import { prefersReducedMotion } from "../lib/motion.ts";

/** SH4: appears once the page has left the top, and smooth-scrolls back. */
export function ScrollToTop() {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > 0);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  return (
    <button
      type="button"
      className="scroll-top"
      hidden={!scrolled}
      onClick={() => window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "auto" : "smooth" })}
    >
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24">
        <path d="M12 5l-7 7h4.5v7h5v-7H19z" fill="currentColor" />
      </svg>
      <span className="visually-hidden">Scroll to the top</span>
    </button>
  );
}
